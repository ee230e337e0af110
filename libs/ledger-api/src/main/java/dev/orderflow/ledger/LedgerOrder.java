package dev.orderflow.ledger;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;

/**
 * An order as reconciliation needs it: its amount, status (CREATED, COMPLETED, CANCELLED or FAILED),
 * creation and last update, and the units ordered per SKU (lines of one SKU added up, as inventory
 * deducts them).
 */
public record LedgerOrder(String id, BigDecimal amount, String status, Instant createdAt, Instant updatedAt,
        Map<String, Long> skus) {
}
