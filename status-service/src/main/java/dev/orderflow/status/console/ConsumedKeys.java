package dev.orderflow.status.console;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.status.domain.ConsumerOutcome;
import dev.orderflow.status.domain.ConsumerState;

/**
 * Whether a consumer already consumed a message key, as this service knows it: the consumer's
 * report of that event (DONE or REJECTED) in {@code order_consumer_outcome}. A re-drive of such a
 * key is a no-op for the consumer; the console shows it so that the operator knows. The report
 * follows the consumer's commit by its relay's delay, so a key consumed a moment ago may still read
 * as not consumed.
 */
@ApplicationScoped
public class ConsumedKeys {

    private static final Logger LOG = Logger.getLogger(ConsumedKeys.class);

    /**
     * @return true/false, or null when it cannot be known (database down): the console shows
     *         "unknown" rather than failing the whole listing
     */
    @Transactional
    public Boolean consumed(String consumer, String messageKey) {
        OrderMessaging.MessageKey key = messageKey == null ? null : OrderMessaging.parseMessageKey(messageKey);
        if (key == null) {
            // Not an order event's key (a poison message): never consumed as one.
            return false;
        }
        ConsumerOutcome.Key id = new ConsumerOutcome.Key();
        id.orderId = key.orderId();
        id.consumer = consumer;
        id.eventType = key.eventType().tag();
        try {
            ConsumerOutcome outcome = ConsumerOutcome.findById(id);
            return outcome != null && (outcome.outcome == ConsumerState.DONE || outcome.outcome == ConsumerState.REJECTED);
        } catch (RuntimeException e) {
            LOG.warnf("Cannot read the outcomes of %s: %s", consumer, e.getMessage());
            return null;
        }
    }
}
