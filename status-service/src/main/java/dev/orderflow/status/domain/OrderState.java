package dev.orderflow.status.domain;

/** Where an order stands, over all required consumers. */
public enum OrderState {
    /** Some required consumer has not reported on the latest event (create, or cancel once requested). */
    PENDING,
    /** Every required consumer is DONE for the create. */
    COMPLETED,
    /** A required consumer rejected or dead-lettered the latest event. */
    FAILED,
    /** A cancel was requested and every required consumer is DONE for it (reversals applied). */
    CANCELLED
}
