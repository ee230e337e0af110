package dev.orderflow.status.console;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.status.domain.ConsumerOutcome;
import dev.orderflow.status.domain.ConsumerState;

/**
 * Whether a consumer already consumed message keys, as this service knows it: the consumer's
 * report of that event (DONE or REJECTED) in {@code order_consumer_outcome}. A re-drive of such a
 * key is a no-op for the consumer; the console shows it so that the operator knows. The report
 * follows the consumer's commit by its relay's delay, so a key consumed a moment ago may still read
 * as not consumed.
 */
@ApplicationScoped
public class ConsumedKeys {

    private static final Logger LOG = Logger.getLogger(ConsumedKeys.class);

    /**
     * One read for a whole listing.
     *
     * @return per key: true/false, or null for every key when it cannot be known (database down):
     *         the console shows "unknown" rather than failing the whole listing. A key that is not an
     *         order event's (a poison message) was never consumed as one.
     */
    @Transactional
    public Map<String, Boolean> consumed(String consumer, Collection<String> messageKeys) {
        Map<String, OrderMessaging.MessageKey> parsed = new HashMap<>();
        for (String key : messageKeys) {
            OrderMessaging.MessageKey messageKey = key == null ? null : OrderMessaging.parseMessageKey(key);
            if (messageKey != null) {
                parsed.put(key, messageKey);
            }
        }
        Map<String, Boolean> answers = new HashMap<>();
        try {
            Set<String> done = parsed.isEmpty() ? Set.of() : ConsumerOutcome.<ConsumerOutcome>list(
                    "consumer = ?1 and orderId in ?2", consumer,
                    parsed.values().stream().map(OrderMessaging.MessageKey::orderId).distinct().toList()).stream()
                    .filter(o -> o.outcome == ConsumerState.DONE || o.outcome == ConsumerState.REJECTED)
                    .map(o -> o.orderId + ":" + o.eventType)
                    .collect(Collectors.toSet());
            for (String key : messageKeys) {
                OrderMessaging.MessageKey messageKey = parsed.get(key);
                answers.put(key, messageKey != null
                        && done.contains(messageKey.orderId() + ":" + messageKey.eventType().tag()));
            }
        } catch (RuntimeException e) {
            LOG.warnf("Cannot read the outcomes of %s: %s", consumer, e.getMessage());
            messageKeys.stream().filter(Objects::nonNull).forEach(key -> answers.put(key, null));
        }
        return answers;
    }

}
