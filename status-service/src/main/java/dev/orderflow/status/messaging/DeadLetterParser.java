package dev.orderflow.status.messaging;

import java.time.Instant;
import java.util.function.UnaryOperator;

import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.status.service.DeadLetteredEvent;

/**
 * Reads a {@code %DLQ%<group>} entry. What matters is in the metadata, not the body (the body may
 * be the very thing that failed to parse): the order comes from KEYS {@code <orderId>:<eventType>},
 * class and reason from the connector's {@code DLQ_*} properties. The one reader of those
 * properties: the dead-letter inputs and the DLQ console ({@code dev.orderflow.status.console}) both use it.
 */
public final class DeadLetterParser {

    /** Reason used when the entry carries none: the broker moved it itself after the retries. */
    static final String NO_REASON = "retries exhausted (the dead letter carries no reason)";

    private DeadLetterParser() {
    }

    /**
     * @throws IllegalArgumentException when neither KEYS nor the body name an order event (a
     *                                  format failure of this service's pipeline)
     */
    static DeadLetteredEvent parse(String consumer, String consumerGroup, IncomingRocketMQMetadata metadata, String body) {
        return parse(consumer, consumerGroup, metadata.msgId(), metadata.key(), metadata::property,
                metadata.storeTimestamp(), body);
    }

    /**
     * An entry browsed from {@code %DLQ%<group>} (the DLQ console), read like a consumed one.
     *
     * @throws IllegalArgumentException when neither KEYS nor the body name an order event
     */
    public static DeadLetteredEvent parse(String consumer, String consumerGroup, DeadLetter letter) {
        return parse(consumer, consumerGroup, letter.msgId(), letter.key(), letter.properties()::get,
                letter.storeTimestamp(), letter.bodyAsString());
    }

    private static DeadLetteredEvent parse(String consumer, String consumerGroup, String msgId, String keys,
            UnaryOperator<String> property, long storeTimestamp, String body) {
        OrderMessaging.MessageKey key = OrderMessaging.parseMessageKey(keys);
        if (key == null) {
            // No usable KEYS (e.g. a producer that set none): the body may still name the order.
            OrderEvent event;
            try {
                event = OrderEventParser.parse(body);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("dead letter " + msgId + " in "
                        + RocketMQDeadLetters.dlqTopic(consumerGroup) + " names no order event: KEYS '"
                        + keys + "' is not <orderId>:<create|cancel> and the body is no order event ("
                        + e.getMessage() + ")", e);
            }
            key = new OrderMessaging.MessageKey(event.orderId(), event.eventType());
        }
        String failureClass = property.apply(RocketMQDeadLetters.FAILURE_CLASS);
        if (!ConsumerReport.FAILURE_CLASSES.contains(failureClass)) {
            // Written by the broker after max reconsume times, not by the connector: retries exhausted.
            failureClass = RocketMQDeadLetters.SYSTEM_CLASS;
        }
        String reason = property.apply(RocketMQDeadLetters.FAILURE_REASON);
        if (reason == null || reason.isBlank()) {
            reason = NO_REASON;
        }
        return new DeadLetteredEvent(consumer, consumerGroup, key.orderId(), key.eventType(), failureClass, reason,
                deadLetteredAt(property.apply(RocketMQDeadLetters.DEAD_LETTERED_AT), storeTimestamp));
    }

    private static Instant deadLetteredAt(String at, long storeTimestamp) {
        // Absent when the broker moved the message itself; when it stored it is the next best time.
        return at != null && at.matches("\\d{1,18}") ? Instant.ofEpochMilli(Long.parseLong(at))
                : Instant.ofEpochMilli(storeTimestamp);
    }
}
