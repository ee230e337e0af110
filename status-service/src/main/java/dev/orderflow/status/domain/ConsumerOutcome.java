package dev.orderflow.status.domain;

import java.io.Serializable;
import java.sql.ResultSet;
import java.sql.SQLException;
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

import dev.orderflow.sql.BatchSql;
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

    /**
     * Columns of {@code order_consumer_outcome} as {@link #read} reads them, for a select list with
     * the table's alias {@code o}: its failure_class is renamed, so that it can share a row with the
     * status row's (in a join with {@code order_message_consume_status}).
     */
    public static final String SELECT_COLUMNS = "o.consumer, o.event_type, o.outcome,"
            + " o.failure_class as outcome_failure_class, o.reason, o.occurred_at, o.source, o.recorded_at";

    /** The outcome row of order {@code orderId} that {@code row} is on (selected as {@link #SELECT_COLUMNS}). */
    public static ConsumerOutcome read(String orderId, ResultSet row) throws SQLException {
        ConsumerOutcome outcome = new ConsumerOutcome();
        outcome.orderId = orderId;
        outcome.consumer = row.getString("consumer");
        outcome.eventType = row.getString("event_type");
        outcome.outcome = ConsumerState.valueOf(row.getString("outcome"));
        outcome.failureClass = row.getString("outcome_failure_class");
        outcome.reason = row.getString("reason");
        outcome.occurredAt = BatchSql.instant(row, "occurred_at");
        outcome.source = row.getString("source");
        outcome.recordedAt = BatchSql.instant(row, "recorded_at");
        return outcome;
    }

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
