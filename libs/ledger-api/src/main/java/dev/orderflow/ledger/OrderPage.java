package dev.orderflow.ledger;

import java.util.List;

/** A page of orders, and the cursor of the next page ({@code null} after the last). */
public record OrderPage(List<LedgerOrder> orders, String next) {
}
