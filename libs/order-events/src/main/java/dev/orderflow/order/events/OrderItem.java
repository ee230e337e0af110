package dev.orderflow.order.events;

import java.math.BigDecimal;

import com.fasterxml.jackson.annotation.JsonFormat;

/**
 * One order line.
 *
 * @param sku       the stock keeping unit
 * @param quantity  how many, at least 1
 * @param unitPrice price of one unit, scale 2, serialized as a string ({@code "12.50"}) so no
 *                  consumer ever parses money through a binary floating point number
 */
public record OrderItem(
        String sku,
        int quantity,
        @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal unitPrice) {

    public OrderItem {
        unitPrice = Money.scale2(unitPrice);
    }

    /** {@code quantity × unitPrice}, scale 2. */
    public BigDecimal lineTotal() {
        return Money.scale2(unitPrice.multiply(BigDecimal.valueOf(quantity)));
    }
}
