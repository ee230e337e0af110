package dev.orderflow.consumer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.EntityManager;

import org.hibernate.Session;

/**
 * Plain JDBC for the pipeline's own tables and for handlers' batch rows, on the connection of the
 * caller's transaction (the one Hibernate uses, so the statements see and are part of the same
 * transaction). A batch's rows go in one multi-row statement: through Hibernate each row was a
 * statement of its own, with its query plan and parameter binding (and with table-generated ids,
 * not even a JDBC batch), which was most of a consumer's CPU per message.
 */
public final class PipelineSql {

    private PipelineSql() {
    }

    /** {@code count} copies of {@code row} separated by commas: the VALUES list of a multi-row statement. */
    static String repeat(String row, int count) {
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
     * Inserts {@code rows} into {@code table} with one multi-row INSERT, in the current transaction.
     * Each row holds one value per column, in column order; {@link Instant}s are stored as UTC
     * wall-clock time like Hibernate's, enums by name.
     */
    public static void insert(EntityManager entityManager, String table, List<String> columns, List<List<?>> rows) {
        insert(entityManager, table, columns, rows, "");
    }

    /**
     * Like {@link #insert}, but a row whose key exists is left as it is ({@code ON DUPLICATE KEY
     * UPDATE key = key}). Either way the statement holds every named row's exclusive lock until
     * commit: the way to create-if-missing and lock rows in one statement.
     */
    public static void insertOrTouch(EntityManager entityManager, String table, List<String> columns,
            List<List<?>> rows, String keyColumn) {
        insert(entityManager, table, columns, rows, " on duplicate key update " + keyColumn + " = " + keyColumn);
    }

    private static void insert(EntityManager entityManager, String table, List<String> columns, List<List<?>> rows,
            String suffix) {
        if (rows.isEmpty()) {
            return;
        }
        List<Object> values = new ArrayList<>(rows.size() * columns.size());
        for (List<?> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("a row of " + table + " has " + row.size() + " values for "
                        + columns.size() + " columns");
            }
            for (Object value : row) {
                values.add(value instanceof Instant instant ? utc(instant) : value instanceof Enum<?> e ? e.name() : value);
            }
        }
        update(entityManager, "insert into " + table + " (" + String.join(", ", columns) + ") values "
                + repeat("(" + repeat("?", columns.size()) + ")", rows.size()) + suffix, values);
    }

    /** UTC wall-clock time, as Hibernate stores instants here ({@code quarkus.hibernate-orm.jdbc.timezone=UTC}). */
    static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** Runs an INSERT/UPDATE/DELETE in the current transaction; returns the affected row count. */
    static int update(EntityManager entityManager, String sql, List<?> parameters) {
        return session(entityManager).doReturningWork(connection -> {
            try (PreparedStatement statement = prepare(connection, sql, parameters)) {
                return statement.executeUpdate();
            }
        });
    }

    /** Runs a query in the current transaction; returns each row's columns as strings. */
    static List<String[]> query(EntityManager entityManager, String sql, List<?> parameters) {
        return session(entityManager).doReturningWork(connection -> {
            try (PreparedStatement statement = prepare(connection, sql, parameters);
                    ResultSet rows = statement.executeQuery()) {
                int columns = rows.getMetaData().getColumnCount();
                List<String[]> result = new ArrayList<>();
                while (rows.next()) {
                    String[] row = new String[columns];
                    for (int i = 0; i < columns; i++) {
                        row[i] = rows.getString(i + 1);
                    }
                    result.add(row);
                }
                return result;
            }
        });
    }

    private static Session session(EntityManager entityManager) {
        return entityManager.unwrap(Session.class);
    }

    private static PreparedStatement prepare(Connection connection, String sql, List<?> parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }
}
