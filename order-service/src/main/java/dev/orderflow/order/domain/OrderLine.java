package dev.orderflow.order.domain;

import java.math.BigDecimal;

/** One line of an order (a row of {@code order_items}; the table's own id is not needed here). */
public class OrderLine {

    /** Position in the order, from 1. */
    public int lineNo;

    public String sku;

    public int quantity;

    public BigDecimal unitPrice;

    public OrderLine() {
    }

    public OrderLine(String sku, int quantity, BigDecimal unitPrice) {
        this.sku = sku;
        this.quantity = quantity;
        this.unitPrice = unitPrice;
    }
}
