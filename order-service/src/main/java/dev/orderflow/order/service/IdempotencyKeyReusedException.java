package dev.orderflow.order.service;

/** An Idempotency-Key that was used before with a different request body. */
public class IdempotencyKeyReusedException extends RuntimeException {

    private final String existingOrderId;

    public IdempotencyKeyReusedException(String existingOrderId) {
        super("The Idempotency-Key was already used for order " + existingOrderId + " with a different request");
        this.existingOrderId = existingOrderId;
    }

    public String existingOrderId() {
        return existingOrderId;
    }
}
