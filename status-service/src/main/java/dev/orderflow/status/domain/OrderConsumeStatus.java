package dev.orderflow.status.domain;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One order's aggregated status (table {@code order_message_consume_status}). The per-consumer
 * outcomes are in {@link ConsumerOutcome}; {@link #state} is derived from them by
 * {@link StateRules} whenever one changes.
 */
@Entity
@Table(name = "order_message_consume_status")
public class OrderConsumeStatus {

    @Id
    @Column(name = "order_id", length = 64)
    public String orderId;

    @Enumerated(EnumType.STRING)
    @Column(name = "state", nullable = false, length = 16)
    public OrderState state;

    /** The create event's occurredAt; null while the create has not arrived (the row is not "opened"). */
    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "cancel_requested_at")
    public Instant cancelRequestedAt;

    @Column(name = "first_seen_at", nullable = false)
    public Instant firstSeenAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "completed_at")
    public Instant completedAt;

    @Column(name = "failure_consumer", length = 32)
    public String failureConsumer;

    @Column(name = "failure_class", length = 16)
    public String failureClass;

    @Column(name = "failure_reason", length = 1024)
    public String failureReason;

    /** True once the create event arrived: only then does the API show the order. */
    public boolean opened() {
        return createdAt != null;
    }

    public boolean cancelRequested() {
        return cancelRequestedAt != null;
    }

    /** The recorded failure, or null. */
    public Failure failure() {
        return failureConsumer == null ? null : new Failure(failureConsumer, failureClass, failureReason);
    }

    public void failure(Failure failure) {
        failureConsumer = failure == null ? null : failure.consumer();
        failureClass = failure == null ? null : failure.failureClass();
        failureReason = failure == null ? null : failure.reason();
    }
}
