package dev.orderflow.status.messaging;

import java.time.Instant;

import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.status.service.DeadLetteredEvent;

/**
 * Reads a {@code %DLQ%<group>} entry. What matters is in the metadata, not the body (the body may
 * be the very thing that failed to parse): the order comes from KEYS {@code <orderId>:<eventType>},
 * class and reason from the connector's {@code DLQ_*} properties.
 */
final class DeadLetterParser {

    /** Reason used when the entry carries none: the broker moved it itself after the retries. */
    static final String NO_REASON = "retries exhausted (the dead letter carries no reason)";

    private DeadLetterParser() {
    }

    /**
     * @throws IllegalArgumentException when neither KEYS nor the body name an order event (a
     *                                  format failure of this service's pipeline)
     */
    static DeadLetteredEvent parse(String consumer, String consumerGroup, IncomingRocketMQMetadata metadata, String body) {
        OrderMessaging.MessageKey key = OrderMessaging.parseMessageKey(metadata.key());
        if (key == null) {
            // No usable KEYS (e.g. a producer that set none): the body may still name the order.
            OrderEvent event;
            try {
                event = OrderEventParser.parse(body);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("dead letter " + metadata.msgId() + " in "
                        + RocketMQDeadLetters.dlqTopic(consumerGroup) + " names no order event: KEYS '"
                        + metadata.key() + "' is not <orderId>:<create|cancel> and the body is no order event ("
                        + e.getMessage() + ")", e);
            }
            key = new OrderMessaging.MessageKey(event.orderId(), event.eventType());
        }
        String failureClass = metadata.property(RocketMQDeadLetters.FAILURE_CLASS);
        if (!ConsumerReport.FAILURE_CLASSES.contains(failureClass)) {
            // Written by the broker after max reconsume times, not by the connector: retries exhausted.
            failureClass = RocketMQDeadLetters.SYSTEM_CLASS;
        }
        String reason = metadata.property(RocketMQDeadLetters.FAILURE_REASON);
        if (reason == null || reason.isBlank()) {
            reason = NO_REASON;
        }
        return new DeadLetteredEvent(consumer, consumerGroup, key.orderId(), key.eventType(), failureClass, reason,
                deadLetteredAt(metadata));
    }

    private static Instant deadLetteredAt(IncomingRocketMQMetadata metadata) {
        String at = metadata.property(RocketMQDeadLetters.DEAD_LETTERED_AT);
        // Absent when the broker moved the message itself; when it stored it is the next best time.
        return at != null && at.matches("\\d{1,18}") ? Instant.ofEpochMilli(Long.parseLong(at))
                : Instant.ofEpochMilli(metadata.storeTimestamp());
    }
}
