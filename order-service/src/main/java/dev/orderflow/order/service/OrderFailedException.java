package dev.orderflow.order.service;

import dev.orderflow.order.events.OrderFailure;

/** The order failed (and was compensated): there is nothing left to cancel. */
public class OrderFailedException extends RuntimeException {

    public OrderFailedException(String orderId, OrderFailure failure) {
        super("Order " + orderId + " failed and was compensated; there is nothing to cancel ("
                + (failure == null ? "no reason recorded" : failure.consumer() + ", " + failure.failureClass() + ": "
                        + failure.reason())
                + ")");
    }
}
