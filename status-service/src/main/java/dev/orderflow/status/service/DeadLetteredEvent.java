package dev.orderflow.status.service;

import java.time.Instant;

import dev.orderflow.order.events.OrderEventType;

/**
 * An order event a required consumer gave up on, read from its {@code %DLQ%<group>}.
 *
 * @param consumer       the consumer's short name
 * @param consumerGroup  its group (the DLQ's owner)
 * @param orderId        the order, from the entry's KEYS {@code <orderId>:<eventType>}
 * @param eventType      create or cancel
 * @param failureClass   format, business or system
 * @param reason         why, as written by the connector
 * @param deadLetteredAt when it was dead-lettered
 */
public record DeadLetteredEvent(String consumer, String consumerGroup, String orderId, OrderEventType eventType,
        String failureClass, String reason, Instant deadLetteredAt) {

    /** The key the status service dedupes dead letters on: {@code dlq:<group>:<orderId>:<eventType>}. */
    public String dedupeKey() {
        return "dlq:" + consumerGroup + ':' + orderId + ':' + eventType.tag();
    }
}
