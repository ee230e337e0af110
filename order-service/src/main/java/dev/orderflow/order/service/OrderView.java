package dev.orderflow.order.service;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import dev.orderflow.order.domain.Order;
import dev.orderflow.order.domain.OrderStatus;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderItem;

/** An immutable snapshot of an order, safe to use after the connection or transaction it was read in. */
public record OrderView(String id, String customerId, String phone, BigDecimal amount, OrderStatus status,
        List<OrderItem> items, Instant createdAt, Instant updatedAt, String requestHash, Instant outcomeAt,
        OrderFailure failure) {

    public static OrderView of(Order order) {
        List<OrderItem> items = order.items.stream()
                .map(line -> new OrderItem(line.sku, line.quantity, line.unitPrice))
                .toList();
        return new OrderView(order.id, order.customerId, order.phone, order.amount, order.status, items,
                order.createdAt, order.updatedAt, order.requestHash, order.outcomeAt, order.failure());
    }
}
