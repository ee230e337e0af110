package dev.orderflow.order.messaging;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.orderflow.order.events.InvalidOrderEventException;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.order.events.OrderOutcomeJson;
import dev.orderflow.order.service.OrderNotFoundException;
import dev.orderflow.order.service.OrderService;
import dev.orderflow.rocketmq.RocketMQBatchFailure;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * Learns how each order ended from the status service ({@code order_outcome_topic}, group
 * {@code order_outcome_group}) and records it on the order: COMPLETED and the end of a
 * cancellation together in one transaction per batch; a FAILED order through
 * {@link OrderService#fail}, whose fail event starts the compensation.
 *
 * <p>Delivery is at-least-once; every update is conditional on the order's state, so a duplicate
 * changes nothing. A body that is not an outcome, or an outcome for an order this service does not
 * have, goes to the group's dead-letter queue at once; a database or broker failure is retried.
 */
@ApplicationScoped
public class OrderOutcomeConsumer {

    /** The incoming channel (application.properties: order_outcome_topic, order_outcome_group, batches). */
    public static final String CHANNEL = "order-outcomes";

    private static final Logger LOG = Logger.getLogger(OrderOutcomeConsumer.class);

    private final OrderService orders;

    @Inject
    public OrderOutcomeConsumer(OrderService orders) {
        this.orders = orders;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = false)
    public CompletionStage<Void> onOutcomes(Message<List<String>> batch) {
        List<String> bodies = batch.getPayload();
        Map<Integer, Throwable> failed = new HashMap<>();
        List<OrderOutcome> finals = new ArrayList<>();
        Map<Integer, OrderOutcome> failures = new HashMap<>();
        for (int i = 0; i < bodies.size(); i++) {
            try {
                OrderOutcome outcome = OrderOutcomeJson.parse(bodies.get(i));
                if (outcome.outcome() == OrderOutcome.Outcome.FAILED) {
                    failures.put(i, outcome);
                } else {
                    finals.add(outcome);
                }
            } catch (InvalidOrderEventException e) {
                failed.put(i, new RocketMQPermanentFailure("format", "not an order outcome: " + e.getMessage(), e));
            }
        }
        try {
            orders.recordOutcomes(finals);
        } catch (RuntimeException e) {
            // Nothing of them was written: the whole batch comes again.
            LOG.warnf("Recording %d order outcome(s) failed, redelivering: %s", finals.size(), e.getMessage());
            return batch.nack(e);
        }
        failures.forEach((index, outcome) -> {
            try {
                orders.fail(outcome);
            } catch (OrderNotFoundException e) {
                failed.put(index, new RocketMQPermanentFailure("business", "no order " + outcome.orderId() + " here", e));
            } catch (RuntimeException e) {
                // Broker or database away, or an unclear commit: come again; a failed order is left alone then.
                LOG.warnf("Failing order %s did not finish, redelivering: %s", outcome.orderId(), e.getMessage());
                failed.put(index, e);
            }
        });
        return failed.isEmpty() ? batch.ack() : batch.nack(new RocketMQBatchFailure(failed));
    }
}
