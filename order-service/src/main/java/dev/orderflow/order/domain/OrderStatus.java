package dev.orderflow.order.domain;

/**
 * Lifecycle of an order as this service sees it: CREATED when accepted; COMPLETED or FAILED once
 * the status service reports how it ended (order_outcome_topic); CANCELLED as soon as a cancel is
 * accepted (its reversals finish later: {@code outcome_at}).
 */
public enum OrderStatus {
    CREATED,
    COMPLETED,
    /** A required consumer refused the order for a business reason, or an operator abandoned it: compensated. */
    FAILED,
    CANCELLED
}
