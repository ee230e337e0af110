package dev.orderflow.status.domain;

import java.io.Serializable;
import java.util.Objects;

/** Key of {@link ConsumerOutcome}: (order, consumer, event type). */
public class ConsumerOutcomeId implements Serializable {

    public String orderId;
    public String consumer;
    public String eventType;

    public ConsumerOutcomeId() {
    }

    public ConsumerOutcomeId(String orderId, String consumer, String eventType) {
        this.orderId = orderId;
        this.consumer = consumer;
        this.eventType = eventType;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConsumerOutcomeId other && Objects.equals(orderId, other.orderId)
                && Objects.equals(consumer, other.consumer) && Objects.equals(eventType, other.eventType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(orderId, consumer, eventType);
    }
}
