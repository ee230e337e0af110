package dev.orderflow.order.rest;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;

import dev.orderflow.order.events.OrderFailure;
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

    /**
     * An order, as returned by {@code GET /orders/{orderId}}, the cancel call and the list.
     * {@code outcomeAt}: when the order reached COMPLETED, FAILED or CANCELLED (every reversal
     * done), null until then; {@code failure}: why a FAILED order failed, else null.
     */
    public record OrderBody(String orderId, String customerId, String phone, String status,
            @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal amount, List<Line> items, Instant createdAt,
            Instant updatedAt, Instant outcomeAt, Failure failure, String statusUrl) {

        static OrderBody of(OrderView order, String statusUrl) {
            return new OrderBody(order.id(), order.customerId(), order.phone(), order.status().name(), order.amount(),
                    order.items().stream().map(Line::of).toList(), order.createdAt(), order.updatedAt(),
                    order.outcomeAt(), order.failure() == null ? null : Failure.of(order.failure()), statusUrl);
        }
    }

    /** Why an order failed: the consumer that refused it, the class ({@code business}, ...) and its words. */
    public record Failure(String consumer, @JsonProperty("class") String failureClass, String reason) {

        static Failure of(OrderFailure failure) {
            return new Failure(failure.consumer(), failure.failureClass(), failure.reason());
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
