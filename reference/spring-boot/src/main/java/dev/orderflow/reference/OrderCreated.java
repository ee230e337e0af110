package dev.orderflow.reference;

import java.math.BigDecimal;
import java.util.List;

/** The message the order role sends (JSON body, message key = order id). */
public record OrderCreated(String orderId, String customerId, String phone, BigDecimal amount, List<Line> items) {

    public record Line(String sku, int quantity) {
    }
}
