package dev.orderflow.consumer;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import jakarta.transaction.TransactionSynchronizationRegistry;

import javax.sql.DataSource;

import dev.orderflow.sql.BatchSql;

/**
 * {@link LockedRows} of a table of counters: a key, a number and when it last changed (stock per
 * SKU, points per customer). Locked with one statement in key order, written back with one.
 */
public final class CounterRows {

    private CounterRows() {
    }

    /**
     * A counter table.
     *
     * @param name          the table
     * @param keyColumn     its primary key
     * @param valueColumn   the number (BIGINT)
     * @param createMissing whether a missing row is created at 0 when locked (else it stays missing: null)
     */
    public record Table(String name, String keyColumn, String valueColumn, boolean createMissing) {
    }

    /** One counter as the transaction holds it; {@link #add} changes it. */
    public static final class Row {
        private final String key;
        private long value;
        private Instant updatedAt;

        Row(String key, long value, Instant updatedAt) {
            this.key = key;
            this.value = value;
            this.updatedAt = updatedAt;
        }

        public String key() {
            return key;
        }

        public long value() {
            return value;
        }

        public Instant updatedAt() {
            return updatedAt;
        }
    }

    /**
     * The counters of {@code table} the current transaction holds locked; in a batch, first locks those
     * {@code keysOf} finds in the batch's payloads.
     */
    public static LockedRows<String, Row> of(TransactionSynchronizationRegistry transactions,
            DataSource dataSource, Table table, Function<Object, Collection<String>> keysOf) {
        return LockedRows.of(transactions, table, keysOf, keys -> lock(dataSource, table, keys),
                changed -> BatchSql.upsert(dataSource, table.name(),
                        List.of(table.keyColumn(), table.valueColumn(), "updated_at"),
                        changed.stream().<List<?>> map(row -> List.of(row.key, row.value, row.updatedAt)).toList(),
                        List.of(table.keyColumn())));
    }

    /** Adds {@code delta} to the held counter {@code row} and marks it changed. */
    public static void add(LockedRows<String, Row> rows, Row row, long delta, Instant at) {
        row.value += delta;
        row.updatedAt = at;
        rows.changed(row.key);
    }

    private static Map<String, Row> lock(DataSource dataSource, Table table, List<String> keys) {
        if (table.createMissing()) {
            Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            // Inserting or touching a row takes its exclusive lock until commit.
            BatchSql.insertOrTouch(dataSource, table.name(),
                    List.of(table.keyColumn(), table.valueColumn(), "updated_at"),
                    keys.stream().<List<?>> map(key -> List.of(key, 0L, now)).toList(), table.keyColumn());
        }
        Map<String, Row> rows = new HashMap<>();
        BatchSql.select(dataSource, "select " + table.keyColumn() + ", " + table.valueColumn()
                + ", updated_at from " + table.name() + BatchSql.PRIMARY_KEY_HINT + " where " + table.keyColumn()
                + " in (" + BatchSql.parameters(keys.size()) + ") order by " + table.keyColumn() + " for update", keys,
                row -> rows.put(row.getString(1), new Row(row.getString(1), row.getLong(2),
                        BatchSql.instant(row, "updated_at"))));
        return rows;
    }
}
