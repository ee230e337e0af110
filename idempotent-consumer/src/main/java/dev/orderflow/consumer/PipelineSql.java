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
 * Plain JDBC for the pipeline's own tables, on the connection of the caller's transaction (the one
 * Hibernate uses, so the statements see and are part of the same transaction). A batch's rows go
 * in one multi-row statement: through Hibernate each row was a statement of its own, with its
 * query plan and parameter binding, which was most of a consumer's CPU per message.
 */
final class PipelineSql {

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
