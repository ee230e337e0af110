package dev.orderflow.status.domain;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * One order's aggregated status (table {@code order_message_consume_status}). The per-consumer
 * outcomes are in {@link ConsumerOutcome}; {@link #state} is derived from them by
 * {@link StateRules} whenever one changes.
 */
@Entity
@Table(name = "order_message_consume_status")
public class OrderConsumeStatus extends PanacheEntityBase {

    @Id
    @Column(name = "order_id")
    public String orderId;

    /** The order's customer, from its create event; null before it. */
    @Column(name = "customer_id")
    public String customerId;

    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR)
    public OrderState state;

    /** The create event's occurredAt; null while the create has not arrived (the row is not "opened"). */
    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "cancel_requested_at")
    public Instant cancelRequestedAt;

    @Column(name = "first_seen_at")
    public Instant firstSeenAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    @Column(name = "completed_at")
    public Instant completedAt;

    /** When the order was decided FAILED (final, its outcome published); null otherwise. */
    @Column(name = "failed_at")
    public Instant failedAt;

    /** When the order reached CANCELLED (every reversal done, its outcome published); null otherwise. */
    @Column(name = "cancelled_at")
    public Instant cancelledAt;

    @Column(name = "failure_consumer")
    public String failureConsumer;

    @Column(name = "failure_class")
    public String failureClass;

    @Column(name = "failure_reason")
    public String failureReason;

    /** The table. */
    public static final String TABLE = "order_message_consume_status";

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
