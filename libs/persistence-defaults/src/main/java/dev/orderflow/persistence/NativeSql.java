package dev.orderflow.persistence;

import java.sql.PreparedStatement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;

import org.hibernate.SharedSessionContract;

/**
 * The native SQL JPA cannot express, run through a Hibernate session in its transaction: many rows
 * inserted or updated by one {@code INSERT … ON DUPLICATE KEY UPDATE} (Hibernate's own upsert sends
 * a statement per row), and the index hint of a locking read.
 *
 * <p>The statement runs on the session's connection ({@code doWork}), bound as plain JDBC: its
 * text changes with the row count, and Hibernate's native queries would keep parameter metadata
 * for every text and build it again, per parameter, on every call. Instants bind as UTC wall-clock
 * time (the suite's {@code quarkus.hibernate-orm.jdbc.timezone}), enums by name.
 */
public final class NativeSql {

    /**
     * Index hint for a locking read of rows by their primary key: {@code "select … from t" +
     * PRIMARY_KEY_HINT + " where key in (…) for update"}. While a table is small (a new deployment's
     * first few hundred rows) MariaDB reads a long IN list by scanning the whole table, and a locking
     * read that scans waits for every row another transaction holds, named or not: two batches then
     * deadlock, each holding rows the other's scan reached. With the hint the read locks the rows it
     * names and no others, whatever the table's size.
     */
    public static final String PRIMARY_KEY_HINT = " force index (primary)";

    private NativeSql() {
    }

    /**
     * Inserts {@code rows} into {@code table}; a row whose key exists takes the new values of every
     * column not in {@code keyColumns}. Each row holds one value per column, in column order.
     */
    public static void upsert(SharedSessionContract session, String table, List<String> columns,
            List<? extends List<?>> rows, List<String> keyColumns) {
        if (!columns.containsAll(keyColumns)) {
            throw new IllegalArgumentException("key columns " + keyColumns + " are not all among " + columns);
        }
        List<String> updates = columns.stream().filter(column -> !keyColumns.contains(column))
                .map(column -> column + " = values(" + column + ")").toList();
        if (updates.isEmpty()) {
            throw new IllegalArgumentException("an upsert of " + table + " needs a column outside the key");
        }
        execute(session, table, columns, rows, String.join(", ", updates));
    }

    /**
     * Inserts the {@code rows} whose key is missing and leaves the others as they are
     * ({@code ON DUPLICATE KEY UPDATE keyColumn = keyColumn}). Either way the statement holds every
     * named row's exclusive lock until the transaction ends: the way to create-if-missing and lock
     * rows in one statement.
     */
    public static void insertMissing(SharedSessionContract session, String table, List<String> columns,
            List<? extends List<?>> rows, String keyColumn) {
        if (!columns.contains(keyColumn)) {
            throw new IllegalArgumentException("key column " + keyColumn + " is not among " + columns);
        }
        execute(session, table, columns, rows, keyColumn + " = " + keyColumn);
    }

    private static void execute(SharedSessionContract session, String table, List<String> columns,
            List<? extends List<?>> rows, String onDuplicate) {
        if (rows.isEmpty()) {
            return;
        }
        String row = "(" + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")";
        String sql = "insert into " + table + " (" + String.join(", ", columns) + ") values "
                + String.join(", ", Collections.nCopies(rows.size(), row)) + " on duplicate key update " + onDuplicate;
        session.doWork(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                int position = 1;
                for (List<?> values : rows) {
                    if (values.size() != columns.size()) {
                        throw new IllegalArgumentException("a row of " + table + " has " + values.size()
                                + " values for " + columns.size() + " columns");
                    }
                    for (Object value : values) {
                        statement.setObject(position++, value instanceof Instant instant
                                ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC)
                                : value instanceof Enum<?> e ? e.name() : value);
                    }
                }
                statement.executeUpdate();
            }
        });
    }
}
