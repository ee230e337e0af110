package dev.orderflow.points.domain;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import dev.orderflow.sql.BatchSql;

/**
 * One change of a balance, caused by one order event: a row of {@code points_ledger} (unique per
 * order and reason).
 */
public class PointsLedgerEntry {

    public enum Reason {
        /** Points credited for an order's create. */
        ORDER_CREDIT,
        /** The same points taken back for the order's cancel. */
        ORDER_REVERSAL,
        /** The same points taken back because the order failed (its {@link #note} says why). */
        ORDER_FAILURE_REVERSAL
    }

    public String orderId;
    public String customerId;
    public Reason reason;
    /** Signed: positive for a credit, the negated credit for its reversal. */
    public long points;
    public Instant createdAt;
    /** Why, beyond the reason; for {@link Reason#ORDER_FAILURE_REVERSAL} the order's failure. Null otherwise. */
    public String note;

    /** Inserts {@code entries} with one statement, in the caller's transaction. */
    public static void insert(DataSource dataSource, List<PointsLedgerEntry> entries) {
        BatchSql.insert(dataSource, "points_ledger",
                List.of("order_id", "customer_id", "reason", "points", "created_at", "note"),
                entries.stream().<List<?>> map(e -> Arrays.asList(e.orderId, e.customerId, e.reason, e.points,
                        e.createdAt, e.note)).toList());
    }

    /**
     * The order's entry for {@code reason}, read with a lock so it sees the latest commit even from a
     * transaction whose snapshot predates it (see CancelBeforeCreateGuard).
     */
    public static Optional<PointsLedgerEntry> of(DataSource dataSource, String orderId, Reason reason) {
        return BatchSql.select(dataSource, "select order_id, customer_id, reason, points, created_at, note from points_ledger"
                + " where order_id = ? and reason = ? for update", List.of(orderId, reason), row -> {
                    PointsLedgerEntry entry = new PointsLedgerEntry();
                    entry.orderId = row.getString("order_id");
                    entry.customerId = row.getString("customer_id");
                    entry.reason = Reason.valueOf(row.getString("reason"));
                    entry.points = row.getLong("points");
                    entry.createdAt = BatchSql.instant(row, "created_at");
                    entry.note = row.getString("note");
                    return entry;
                }).stream().findFirst();
    }
}
