package dev.orderflow.status.domain;

/** Where an order stands, over all required consumers. */
public enum OrderState {
    /** Some required consumer has not reported on the latest event (create, or cancel once requested). */
    PENDING,
    /** Every required consumer is DONE for the create. */
    COMPLETED,
    /**
     * The order failed for a business reason (a required consumer rejected its create, or
     * dead-lettered it as a business failure) or an operator abandoned it: final, and compensated
     * (the {@code fail} event; each consumer's compensation is that event's outcome).
     */
    FAILED,
    /** A cancel was requested and every required consumer is DONE for it (reversals applied). */
    CANCELLED,
    /**
     * A required consumer dead-lettered the latest event for a system or format reason (retries
     * exhausted, an unreadable message), or a reversal of a cancel failed: nothing is compensated by
     * itself; the order waits for a re-drive, or for an operator to abandon it (then FAILED).
     */
    ATTENTION
}
