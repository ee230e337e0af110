package dev.orderflow.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/**
 * Plain JDBC for the tables not mapped as Hibernate entities: the consumer pipeline's own rows,
 * the order service's INSERTs, sms-service's outbox, the status service's recorder.
 *
 * <p>The {@link DataSource} overloads run in the caller's JTA transaction: inside one, the
 * datasource (Agroal with transaction integration) hands out the one connection enlisted in that
 * transaction each time, so every statement sees and is part of it; outside one they run on an
 * auto-commit connection of their own. They throw {@link UncheckedSQLException} with the driver's
 * {@link SQLException} as its cause. The {@link Connection} overloads are for work that holds a
 * connection itself.
 *
 * <p>A batch's rows go in one multi-row statement (Hibernate sends them as a JDBC batch of one
 * statement per row, and with table-generated ids not even that).
 */
public final class BatchSql {

    /**
     * Index hint for a locking read of rows by their primary key: {@code "select … from t" +
     * PRIMARY_KEY_HINT + " where key in (…) for update"}. While a table is small (a new deployment's
     * first few hundred rows) MariaDB reads a long IN list by scanning the whole table, and a locking
     * read that scans waits for every row another transaction holds, named or not: two batches then
     * deadlock, each holding rows the other's scan reached. With the hint the read locks the rows it
     * names and no others, whatever the table's size.
     */
    public static final String PRIMARY_KEY_HINT = " force index (primary)";

    private BatchSql() {
    }

    /** Turns the current row of a result into a value. */
    @FunctionalInterface
    public interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** {@code count} parameter markers separated by commas, e.g. for an {@code IN (...)} list. */
    public static String parameters(int count) {
        return repeat("?", count);
    }

    /** {@code count} copies of {@code row} separated by commas: the VALUES list of a multi-row statement. */
    private static String repeat(String row, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a statement needs at least one row");
        }
        StringBuilder sql = new StringBuilder(row.length() * count + count);
        for (int i = 0; i < count; i++) {
            sql.append(i == 0 ? "" : ",").append(row);
        }
        return sql.toString();
    }

    /**
     * Inserts {@code rows} into {@code table} with one multi-row INSERT, in the caller's transaction.
     * Each row holds one value per column, in column order; {@link Instant}s are stored as UTC
     * wall-clock time, enums by name.
     */
    public static void insert(DataSource dataSource, String table, List<String> columns, List<List<?>> rows) {
        insert(dataSource, table, columns, rows, "");
    }

    /**
     * Like {@link #insert(DataSource, String, List, List)}, on {@code connection}: for work that
     * holds a connection itself.
     */
    public static void insert(Connection connection, String table, List<String> columns, List<List<?>> rows)
            throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        Statement insert = insertStatement(table, columns, rows, "");
        update(connection, insert.sql(), insert.parameters());
    }

    /**
     * Like {@link #insert}, but a row whose key exists is left as it is ({@code ON DUPLICATE KEY
     * UPDATE key = key}). Either way the statement holds every named row's exclusive lock until
     * commit: the way to create-if-missing and lock rows in one statement.
     */
    public static void insertOrTouch(DataSource dataSource, String table, List<String> columns,
            List<List<?>> rows, String keyColumn) {
        insert(dataSource, table, columns, rows, " on duplicate key update " + keyColumn + " = " + keyColumn);
    }

    /**
     * Like {@link #insert}, but a row whose key exists takes the new values of every column not in
     * {@code keyColumns} ({@code ON DUPLICATE KEY UPDATE c = VALUES(c)}): writes a batch's changed
     * rows, new or not, in one statement.
     */
    public static void upsert(DataSource dataSource, String table, List<String> columns, List<List<?>> rows,
            List<String> keyColumns) {
        if (!columns.containsAll(keyColumns)) {
            throw new IllegalArgumentException("key columns " + keyColumns + " are not all among " + columns);
        }
        List<String> updates = columns.stream().filter(column -> !keyColumns.contains(column))
                .map(column -> column + " = values(" + column + ")").toList();
        if (updates.isEmpty()) {
            throw new IllegalArgumentException("an upsert of " + table + " needs a column outside the key");
        }
        insert(dataSource, table, columns, rows, " on duplicate key update " + String.join(", ", updates));
    }

    /**
     * Like {@link #insert}, and returns the ids the table generated for the rows, in row order
     * (MariaDB's {@code INSERT … RETURNING}, which answers one row per inserted row, in order).
     */
    public static List<Long> insertReturningIds(DataSource dataSource, String table, List<String> columns,
            List<List<?>> rows, String idColumn) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Statement insert = insertStatement(table, columns, rows, " returning " + idColumn);
        List<Long> ids = select(dataSource, insert.sql(), insert.parameters(), row -> row.getLong(1));
        if (ids.size() != rows.size()) {
            throw new IllegalStateException("insert into " + table + " of " + rows.size() + " rows returned "
                    + ids.size() + " ids");
        }
        return ids;
    }

    private static void insert(DataSource dataSource, String table, List<String> columns, List<List<?>> rows,
            String suffix) {
        if (rows.isEmpty()) {
            return;
        }
        Statement insert = insertStatement(table, columns, rows, suffix);
        update(dataSource, insert.sql(), insert.parameters());
    }

    /** A multi-row INSERT of {@code rows} and its parameters; {@code suffix} follows the VALUES list. */
    private static Statement insertStatement(String table, List<String> columns, List<List<?>> rows, String suffix) {
        List<Object> values = new ArrayList<>(rows.size() * columns.size());
        for (List<?> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("a row of " + table + " has " + row.size() + " values for "
                        + columns.size() + " columns");
            }
            values.addAll(row);
        }
        return new Statement("insert into " + table + " (" + String.join(", ", columns) + ") values "
                + repeat("(" + repeat("?", columns.size()) + ")", rows.size()) + suffix, values);
    }

    private record Statement(String sql, List<Object> parameters) {
    }

    /** UTC wall-clock time: every DATETIME column here holds UTC. */
    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /**
     * Runs an INSERT/UPDATE/DELETE in the caller's transaction; returns the affected row count.
     * Parameters are bound like {@link #insert}'s values (instants as UTC wall-clock time, enums by name).
     */
    public static int update(DataSource dataSource, String sql, List<?> parameters) {
        return inTransaction(dataSource, connection -> update(connection, sql, parameters));
    }

    /**
     * Runs an INSERT/UPDATE/DELETE on {@code connection} (for work outside any transaction, on an
     * auto-commit connection); returns the affected row count. Parameters are bound like
     * {@link #insert}'s values.
     */
    public static int update(Connection connection, String sql, List<?> parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    /** Runs a query in the caller's transaction; returns each row's columns as strings. */
    public static List<String[]> query(DataSource dataSource, String sql, List<?> parameters) {
        return select(dataSource, sql, parameters, row -> {
            String[] columns = new String[row.getMetaData().getColumnCount()];
            for (int i = 0; i < columns.length; i++) {
                columns[i] = row.getString(i + 1);
            }
            return columns;
        });
    }

    /**
     * Runs a query in the caller's transaction; returns what {@code reader} makes of each row.
     * Parameters are bound like {@link #insert}'s values (instants as UTC wall-clock time).
     */
    public static <T> List<T> select(DataSource dataSource, String sql, List<?> parameters, RowReader<T> reader) {
        return inTransaction(dataSource, connection -> select(connection, sql, parameters, reader));
    }

    /** Like {@link #select(DataSource, String, List, RowReader)}, on {@code connection}. */
    public static <T> List<T> select(Connection connection, String sql, List<?> parameters, RowReader<T> reader)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet rows = statement.executeQuery()) {
            List<T> result = new ArrayList<>();
            while (rows.next()) {
                result.add(reader.read(rows));
            }
            return result;
        }
    }

    /** Work on each chunk of a streamed result. */
    @FunctionalInterface
    public interface ChunkWork<T> {
        void accept(List<T> chunk);
    }

    /**
     * Runs a query in the caller's transaction and hands {@code work} its rows {@code chunkSize} at a
     * time, as the driver reads them: the fetch size makes MariaDB Connector/J stream the result
     * instead of buffering it, so memory grows with the chunk, not with the result. {@code work} must
     * not use this connection (another statement on it would make the driver buffer the rest).
     *
     * @return the rows read
     */
    public static <T> int selectInChunks(DataSource dataSource, String sql, List<?> parameters, int chunkSize,
            RowReader<T> reader, ChunkWork<T> work) {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("chunk size must be at least 1, was " + chunkSize);
        }
        return inTransaction(dataSource, connection -> {
            int read = 0;
            try (PreparedStatement statement = prepare(connection, sql, parameters)) {
                statement.setFetchSize(chunkSize);
                try (ResultSet rows = statement.executeQuery()) {
                    List<T> chunk = new ArrayList<>(chunkSize);
                    while (rows.next()) {
                        read++;
                        chunk.add(reader.read(rows));
                        if (chunk.size() == chunkSize) {
                            work.accept(chunk);
                            chunk = new ArrayList<>(chunkSize);
                        }
                    }
                    if (!chunk.isEmpty()) {
                        work.accept(chunk);
                    }
                }
            }
            return read;
        });
    }

    /** A DATETIME column written as UTC wall-clock time (by {@link #insert}), or null. */
    public static Instant instant(ResultSet row, String column) throws SQLException {
        LocalDateTime value = row.getObject(column, LocalDateTime.class);
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    /** Instants as UTC wall-clock time; enums by name. */
    private static Object bindable(Object value) {
        return value instanceof Instant instant ? utc(instant) : value instanceof Enum<?> e ? e.name() : value;
    }

    /** Work on a connection that may throw the driver's exception. */
    @FunctionalInterface
    public interface ConnectionWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * Runs {@code work} on the connection of the caller's transaction (see the class comment);
     * a {@link SQLException} becomes an {@link UncheckedSQLException}. For a handler's own JDBC
     * next to the pipeline's statements.
     */
    public static <T> T inTransaction(DataSource dataSource, ConnectionWork<T> work) {
        // Closing the handle inside a JTA transaction keeps the connection enlisted until it completes.
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new UncheckedSQLException(e);
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, List<?> parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, bindable(parameters.get(i)));
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }
}
