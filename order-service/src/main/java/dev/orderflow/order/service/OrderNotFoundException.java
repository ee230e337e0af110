package dev.orderflow.order.service;

/** No order with this id. */
public class OrderNotFoundException extends RuntimeException {

    private final String orderId;

    public OrderNotFoundException(String orderId) {
        super("Order " + orderId + " does not exist");
        this.orderId = orderId;
    }

    public String orderId() {
        return orderId;
    }
}
