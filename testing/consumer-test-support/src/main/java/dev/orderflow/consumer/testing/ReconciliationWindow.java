package dev.orderflow.consumer.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.Set;

/**
 * status-service's reconciliation has each service read, through its ledger API, the rows created in
 * its window ({@code GET /ledger/orders}, {@code GET /ledger/effects/order-ids}:
 * {@code ... from <table> where created_at >= ? and created_at < ?}, a 24 h window every hour). For a table that keeps its history, that read must go through an index
 * on {@code created_at}: without one every run reads the whole table, a cost that grows with the
 * history rather than the window.
 *
 * <p>A test writes {@link #HISTORY_ROWS} rows at {@link #HISTORY_AT} and a few in
 * [{@link #WINDOW_FROM}, {@link #WINDOW_TO}) (years before any other test's rows, so no other row
 * falls in the window), then {@link #read}s the window.
 */
public final class ReconciliationWindow {

    /** Enough history that reading it stands far above the few rows a window read of two rows takes. */
    public static final int HISTORY_ROWS = 3_000;
    public static final LocalDateTime HISTORY_AT = LocalDateTime.of(2000, 1, 1, 0, 0);
    public static final LocalDateTime WINDOW_FROM = LocalDateTime.of(2001, 1, 1, 0, 0);
    public static final LocalDateTime WINDOW_TO = WINDOW_FROM.plusDays(1);
    /** The page a ledger call reads at most (the ledgers' largest limit). */
    private static final int PAGE = 1000;

    /**
     * The ids the window read returned, and the rows MariaDB read for it: its handler reads of every kind
     * (index lookups and scans, table scans), counted on the read's own connection.
     */
    public record Read(Set<String> ids, long rowsRead) {
    }

    private ReconciliationWindow() {
    }

    /**
     * Reads the first page of the window as a consumer's ledger does ({@code WindowReads}: the distinct
     * {@code idColumn}s of {@code table}'s rows created in the window, ascending, at most a page).
     */
    public static Read read(String table, String idColumn) {
        return read("select distinct " + idColumn + " from " + table + " where created_at >= ? and created_at < ?"
                + " order by " + idColumn + " limit " + PAGE);
    }

    /**
     * Reads the first page of the window as order-service's ledger does ({@code OrderLedger}: the
     * {@code idColumn}s of the rows created in the window by creation time, then id, at most a page).
     */
    public static Read readByCreation(String table, String idColumn) {
        return read("select " + idColumn + " from " + table + " where created_at >= ? and created_at < ?"
                + " order by created_at, " + idColumn + " limit " + PAGE);
    }

    private static Read read(String sql) {
        try (Connection connection = CommittedState.connect()) {
            long before = rowsRead(connection);
            Set<String> ids = new HashSet<>();
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setObject(1, WINDOW_FROM);
                statement.setObject(2, WINDOW_TO);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                    }
                }
            }
            return new Read(ids, rowsRead(connection) - before);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The connection's handler reads so far (reading them adds about ten). */
    private static long rowsRead(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                "select sum(variable_value) from information_schema.session_status"
                        + " where variable_name like 'HANDLER\\_READ\\_%'")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
