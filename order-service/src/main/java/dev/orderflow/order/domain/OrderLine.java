package dev.orderflow.order.domain;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/**
 * One line of an order (a row of {@code order_items}, numbered by its position in
 * {@link Order#items}; the table's own id is not needed here).
 */
@Embeddable
public class OrderLine {

    public String sku;

    public int quantity;

    @Column(name = "unit_price")
    public BigDecimal unitPrice;

    public OrderLine() {
    }

    public OrderLine(String sku, int quantity, BigDecimal unitPrice) {
        this.sku = sku;
        this.quantity = quantity;
        this.unitPrice = unitPrice;
    }
}
