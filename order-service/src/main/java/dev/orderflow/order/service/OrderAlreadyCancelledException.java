package dev.orderflow.order.service;

/** The order was cancelled before; cancelling twice is a conflict (no second cancel message). */
public class OrderAlreadyCancelledException extends RuntimeException {

    public OrderAlreadyCancelledException(String orderId) {
        super("Order " + orderId + " is already cancelled");
    }
}
