package dev.orderflow.status.domain;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** What one consumer did with one event of one order (table {@code order_consumer_outcome}). */
@Entity
@Table(name = "order_consumer_outcome")
@IdClass(ConsumerOutcome.Key.class)
public class ConsumerOutcome extends PanacheEntityBase {

    /** Where the status service learned an outcome. */
    public static final String FROM_REPORT = "report";
    public static final String FROM_DEAD_LETTER_QUEUE = "dead-letter-queue";

    @Id
    @Column(name = "order_id")
    public String orderId;

    @Id
    public String consumer;

    /** {@code create}, {@code cancel} or {@code fail} (a compensation). */
    @Id
    @Column(name = "event_type")
    public String eventType;

    /** DONE, REJECTED or DEAD_LETTERED (never PENDING: no row means pending). */
    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR)
    public ConsumerState outcome;

    @Column(name = "failure_class")
    public String failureClass;

    public String reason;

    @Column(name = "occurred_at")
    public Instant occurredAt;

    public String source;

    @Column(name = "recorded_at")
    public Instant recordedAt;

    /** The table. */
    public static final String TABLE = "order_consumer_outcome";

    /** The failure this outcome stands for; null unless it failed. */
    public Failure failure() {
        if (!outcome.failed()) {
            return null;
        }
        return new Failure(consumer, failureClass != null ? failureClass : Failure.REJECTED_CLASS, reason);
    }

    /** The identifier: one outcome per order, consumer and event. */
    public static class Key implements Serializable {
        public String orderId;
        public String consumer;
        public String eventType;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(orderId, key.orderId)
                    && Objects.equals(consumer, key.consumer) && Objects.equals(eventType, key.eventType);
        }

        @Override
        public int hashCode() {
            return Objects.hash(orderId, consumer, eventType);
        }
    }
}
