package dev.orderflow.order.service;

/**
 * @param order   the order
 * @param created true when this call created it; false when an earlier request with the same
 *                Idempotency-Key did (nothing was sent)
 */
public record CreateResult(OrderView order, boolean created) {
}
