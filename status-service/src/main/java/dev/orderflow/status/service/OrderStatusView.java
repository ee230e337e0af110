package dev.orderflow.status.service;

import java.time.Instant;
import java.util.Map;

import dev.orderflow.status.domain.ConsumerState;
import dev.orderflow.status.domain.Failure;
import dev.orderflow.status.domain.OrderState;

/**
 * An opened order's status as the API shows it.
 *
 * @param consumers   each required consumer's state for the event the order follows (the create,
 *                    or the cancel once one was requested), in the configured order
 * @param completedAt when every required consumer was first DONE for the create; null before
 * @param failure     why it FAILED, or what an order in ATTENTION waits for; null in other states
 * @param compensation each required consumer's state for the order's fail event (DONE when its
 *                    reversal is applied), in the configured order; null unless the state is FAILED
 * @param customerId  the order's customer (not shown; decides who may read it); null on rows from
 *                    before it was recorded
 */
public record OrderStatusView(String orderId, OrderState state, Map<String, ConsumerState> consumers,
        Instant createdAt, Instant completedAt, Failure failure, Map<String, ConsumerState> compensation,
        String customerId) {
}
