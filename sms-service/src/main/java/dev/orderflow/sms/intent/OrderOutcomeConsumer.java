package dev.orderflow.sms.intent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.orderflow.order.events.InvalidOrderEventException;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.order.events.OrderOutcomeJson;
import dev.orderflow.rocketmq.RocketMQBatchFailure;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import dev.orderflow.sms.outbox.SmsOutbox;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * Sends an order's confirmation once the order COMPLETED: reads the status service's outcomes
 * ({@code order_outcome_topic}, group {@code sms_outcome_group}) and releases the held
 * confirmations of the completed orders, in one transaction per batch; the dispatcher sends them.
 * Other outcomes change nothing here (a failed order's text comes with its fail event).
 *
 * <p>A COMPLETED order has this service's DONE for its create (sms is a required consumer), so its
 * confirmation is recorded before the outcome exists. Releasing is conditional on the row being
 * HELD, so a duplicate outcome changes nothing.
 */
@ApplicationScoped
public class OrderOutcomeConsumer {

    private static final Logger LOG = Logger.getLogger(OrderOutcomeConsumer.class);

    private final SmsOutbox outbox;
    private final Event<TextsDue> due;

    @Inject
    public OrderOutcomeConsumer(SmsOutbox outbox, Event<TextsDue> due) {
        this.outbox = outbox;
        this.due = due;
    }

    @Incoming("order-outcomes")
    @Blocking(ordered = false)
    public CompletionStage<Void> onOutcomes(Message<List<String>> batch) {
        List<String> bodies = batch.getPayload();
        Map<Integer, Throwable> invalid = new HashMap<>();
        List<String> completed = new ArrayList<>();
        for (int i = 0; i < bodies.size(); i++) {
            try {
                OrderOutcome outcome = OrderOutcomeJson.parse(bodies.get(i));
                if (outcome.outcome() == OrderOutcome.Outcome.COMPLETED) {
                    completed.add(outcome.orderId());
                }
            } catch (InvalidOrderEventException e) {
                invalid.put(i, new RocketMQPermanentFailure("format", "not an order outcome: " + e.getMessage(), e));
            }
        }
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                int released = outbox.releaseConfirmations(completed);
                if (released > 0) {
                    due.fire(new TextsDue(released));
                }
            });
        } catch (RuntimeException e) {
            LOG.warnf("Releasing %d confirmation(s) failed, redelivering: %s", completed.size(), e.getMessage());
            return batch.nack(e);
        }
        return invalid.isEmpty() ? batch.ack() : batch.nack(new RocketMQBatchFailure(invalid));
    }
}
