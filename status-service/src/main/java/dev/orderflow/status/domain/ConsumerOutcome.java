package dev.orderflow.status.domain;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** What one consumer did with one event of one order (table {@code order_consumer_outcome}). */
@Entity
@Table(name = "order_consumer_outcome")
@IdClass(ConsumerOutcomeId.class)
public class ConsumerOutcome {

    /** Where the status service learned an outcome. */
    public static final String FROM_REPORT = "report";
    public static final String FROM_DEAD_LETTER_QUEUE = "dead-letter-queue";

    @Id
    @Column(name = "order_id", length = 64)
    public String orderId;

    @Id
    @Column(name = "consumer", length = 32)
    public String consumer;

    /** {@code create} or {@code cancel}. */
    @Id
    @Column(name = "event_type", length = 8)
    public String eventType;

    /** DONE, REJECTED or DEAD_LETTERED (never PENDING: no row means pending). */
    @Enumerated(EnumType.STRING)
    @Column(name = "outcome", nullable = false, length = 16)
    public ConsumerState outcome;

    @Column(name = "failure_class", length = 16)
    public String failureClass;

    @Column(name = "reason", length = 1024)
    public String reason;

    @Column(name = "occurred_at", nullable = false)
    public Instant occurredAt;

    @Column(name = "source", nullable = false, length = 24)
    public String source;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;

    /** The failure this outcome stands for; null unless it failed. */
    public Failure failure() {
        if (!outcome.failed()) {
            return null;
        }
        return new Failure(consumer, failureClass != null ? failureClass : Failure.REJECTED_CLASS, reason);
    }
}
