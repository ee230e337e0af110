package dev.orderflow.status.service;

import java.time.Duration;

import dev.orderflow.status.domain.OrderState;

/**
 * Fired inside the transaction that changed what the API shows for an order (its state, or the
 * order becoming visible when its create arrived). Observers that must only see committed changes
 * use {@code @Observes(during = TransactionPhase.AFTER_SUCCESS)}.
 *
 * @param orderId          the order
 * @param state            its new state
 * @param completionLatency completed_at − created_at when this change completed the order, else null
 */
public record OrderStateChanged(String orderId, OrderState state, Duration completionLatency) {
}
