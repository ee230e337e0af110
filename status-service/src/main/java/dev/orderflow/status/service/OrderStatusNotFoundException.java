package dev.orderflow.status.service;

/** No opened status for the order: nothing heard of it, or its create event has not arrived yet. */
public class OrderStatusNotFoundException extends RuntimeException {

    private final String orderId;
    private final boolean awaitingCreate;

    public OrderStatusNotFoundException(String orderId, boolean awaitingCreate) {
        super(awaitingCreate
                ? "no create event received yet for order " + orderId
                        + " (reports or events about it have arrived; it becomes visible with its create)"
                : "no status for order " + orderId + ": no event about it has been received", null, false, false);
        this.orderId = orderId;
        this.awaitingCreate = awaitingCreate;
    }

    public String orderId() {
        return orderId;
    }

    /** True when something about the order arrived, but not its create event. */
    public boolean awaitingCreate() {
        return awaitingCreate;
    }
}
