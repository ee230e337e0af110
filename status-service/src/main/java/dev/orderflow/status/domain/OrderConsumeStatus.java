package dev.orderflow.status.domain;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import dev.orderflow.sql.BatchSql;

/**
 * One order's aggregated status (table {@code order_message_consume_status}). The per-consumer
 * outcomes are in {@link ConsumerOutcome}; {@link #state} is derived from them by
 * {@link StateRules} whenever one changes.
 */
public class OrderConsumeStatus {

    public String orderId;

    /** The order's customer, from its create event; null before it. */
    public String customerId;

    public OrderState state;

    /** The create event's occurredAt; null while the create has not arrived (the row is not "opened"). */
    public Instant createdAt;

    public Instant cancelRequestedAt;

    public Instant firstSeenAt;

    public Instant updatedAt;

    public Instant completedAt;

    /** When the order was decided FAILED (final, its outcome published); null otherwise. */
    public Instant failedAt;

    /** When the order reached CANCELLED (every reversal done, its outcome published); null otherwise. */
    public Instant cancelledAt;

    public String failureConsumer;

    public String failureClass;

    public String failureReason;

    /** The table. */
    public static final String TABLE = "order_message_consume_status";

    /** Columns of the table as {@link #read} reads them, for a select list with the table's alias {@code s}. */
    public static final String SELECT_COLUMNS = "s.order_id, s.customer_id, s.state, s.created_at, s.cancel_requested_at,"
            + " s.first_seen_at, s.updated_at, s.completed_at, s.failed_at, s.cancelled_at, s.failure_consumer,"
            + " s.failure_class, s.failure_reason";

    /** The status row {@code row} is on (selected as {@link #SELECT_COLUMNS}). */
    public static OrderConsumeStatus read(ResultSet row) throws SQLException {
        OrderConsumeStatus status = new OrderConsumeStatus();
        status.orderId = row.getString("order_id");
        status.customerId = row.getString("customer_id");
        status.state = OrderState.valueOf(row.getString("state"));
        status.createdAt = BatchSql.instant(row, "created_at");
        status.cancelRequestedAt = BatchSql.instant(row, "cancel_requested_at");
        status.firstSeenAt = BatchSql.instant(row, "first_seen_at");
        status.updatedAt = BatchSql.instant(row, "updated_at");
        status.completedAt = BatchSql.instant(row, "completed_at");
        status.failedAt = BatchSql.instant(row, "failed_at");
        status.cancelledAt = BatchSql.instant(row, "cancelled_at");
        status.failureConsumer = row.getString("failure_consumer");
        status.failureClass = row.getString("failure_class");
        status.failureReason = row.getString("failure_reason");
        return status;
    }

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
