package dev.orderflow.persistence;

import java.util.Collections;
import java.util.List;

import org.hibernate.SharedSessionContract;
import org.hibernate.query.NativeQuery;

/**
 * The native SQL JPA cannot express, run through a Hibernate session in its transaction: many rows
 * inserted or updated by one {@code INSERT … ON DUPLICATE KEY UPDATE} (Hibernate's own upsert sends
 * a statement per row), and the index hint of a locking read.
 *
 * <p>A statement's row count is rounded up to a power of two by repeating its last row: a repeated
 * row meets its own key and writes the same values again, so it changes nothing, and a table's
 * statements take a handful of texts. Hibernate keeps an entry per native statement text; with a
 * text per row count those entries would grow with the batch sizes seen.
 *
 * <p>Values bind as Hibernate binds them (instants in the configured time zone); enums by name.
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
        int statementRows = Integer.highestOneBit(rows.size()) == rows.size() ? rows.size()
                : Integer.highestOneBit(rows.size()) << 1;
        String row = "(" + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")";
        String sql = "insert into " + table + " (" + String.join(", ", columns) + ") values "
                + String.join(", ", Collections.nCopies(statementRows, row))
                + " on duplicate key update " + onDuplicate;
        NativeQuery<?> statement = session.createNativeQuery(sql);
        int position = 1;
        for (int i = 0; i < statementRows; i++) {
            List<?> values = rows.get(Math.min(i, rows.size() - 1));
            if (values.size() != columns.size()) {
                throw new IllegalArgumentException("a row of " + table + " has " + values.size() + " values for "
                        + columns.size() + " columns");
            }
            for (Object value : values) {
                statement.setParameter(position++, value instanceof Enum<?> e ? e.name() : value);
            }
        }
        statement.executeUpdate();
    }
}
