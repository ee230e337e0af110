package dev.orderflow.order.rest;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonFormat;

import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.service.OrderView;

/** Response bodies. Money is a two-decimal string ("25.00"), times ISO-8601 UTC with milliseconds. */
public final class OrderResponses {

    private OrderResponses() {
    }

    /** Body of {@code POST /orders} (201, or 200 for an idempotent replay). */
    public record Created(String orderId, String status,
            @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal amount, Instant createdAt, String statusUrl) {

        static Created of(OrderView order, String statusUrl) {
            return new Created(order.id(), order.status().name(), order.amount(), order.createdAt(), statusUrl);
        }
    }

    /** An order, as returned by {@code GET /orders/{orderId}}, the cancel call and the list. */
    public record OrderBody(String orderId, String customerId, String phone, String status,
            @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal amount, List<Line> items, Instant createdAt,
            Instant updatedAt, String statusUrl) {

        static OrderBody of(OrderView order, String statusUrl) {
            return new OrderBody(order.id(), order.customerId(), order.phone(), order.status().name(), order.amount(),
                    order.items().stream().map(Line::of).toList(), order.createdAt(), order.updatedAt(), statusUrl);
        }
    }

    public record Line(String sku, int quantity, @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal unitPrice) {

        static Line of(OrderItem item) {
            return new Line(item.sku(), item.quantity(), item.unitPrice());
        }
    }

    /** A page of {@code GET /orders}. */
    public record Page(List<OrderBody> items, int page, int size, long totalItems, long totalPages) {
    }
}
