package dev.orderflow.consumer;

/**
 * Thrown by a handler when a well-formed message can never be applied (unknown SKU, unknown
 * customer). The transaction rolls back and the message goes to the group's DLQ after this one
 * attempt. Not for expected "no" answers such as insufficient stock: return
 * {@link Outcome#rejected(String)} for those.
 */
public class BusinessFailure extends RuntimeException {

    public BusinessFailure(String reason) {
        super(reason);
    }

    public BusinessFailure(String reason, Throwable cause) {
        super(reason, cause);
    }
}
