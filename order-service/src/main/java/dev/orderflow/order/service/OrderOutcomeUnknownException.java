package dev.orderflow.order.service;

import dev.orderflow.order.events.OrderEventType;

/**
 * The local transaction of a create or cancel ended unclearly (e.g. the database connection was
 * lost during commit): the change may or may not have committed. Its half message stays pending
 * and the broker's check-back settles it from the orders table, so the row and the message still
 * agree; the client learns the result from {@code GET /orders/{orderId}} or by retrying with the
 * same Idempotency-Key.
 */
public class OrderOutcomeUnknownException extends RuntimeException {

    private final String orderId;
    private final OrderEventType eventType;

    public OrderOutcomeUnknownException(String orderId, OrderEventType eventType, Throwable cause) {
        super("The outcome of the " + eventType.name().toLowerCase() + " of order " + orderId
                + " is not known yet; the broker's check-back settles it", cause);
        this.orderId = orderId;
        this.eventType = eventType;
    }

    public String orderId() {
        return orderId;
    }

    public OrderEventType eventType() {
        return eventType;
    }
}
