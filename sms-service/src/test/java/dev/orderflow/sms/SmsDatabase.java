package dev.orderflow.sms;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The test database (orderflow_sms_test on the real MariaDB) through its own connection: sees
 * only committed rows.
 */
public final class SmsDatabase {

    public static final String URL = "jdbc:mariadb://127.0.0.1:3306/orderflow_sms_test";

    private SmsDatabase() {
    }

    /** The outbox row with this business key, or null. */
    public static OutboxRow outboxRow(String businessKey) {
        List<OutboxRow> rows = query("select business_key, order_id, event_type, phone, text, status, attempts, "
                + "last_error, sent_at is not null from sms_outbox where business_key = ?", businessKey);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Every outbox row of an order. */
    public static List<OutboxRow> outboxRowsOfOrder(String orderId) {
        return query("select business_key, order_id, event_type, phone, text, status, attempts, last_error, "
                + "sent_at is not null from sms_outbox where order_id = ? order by id", orderId);
    }

    public static long count(String sql, Object... params) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, params);
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The pipeline's outcome for (sms_group, key): DONE, REJECTED or null when not consumed. */
    public static String consumeOutcome(String key) {
        String sql = "select concat(outcome, coalesce(concat(': ', outcome_reason), '')) from consume_record "
                + "where consumer_group = 'sms_group' and message_key = ?";
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, key);
                ResultSet rs = statement.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static List<OutboxRow> query(String sql, Object... params) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, params);
                ResultSet rs = statement.executeQuery()) {
            List<OutboxRow> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new OutboxRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getInt(7), rs.getString(8), rs.getBoolean(9)));
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, "root", "");
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... params) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) {
            statement.setObject(i + 1, params[i]);
        }
        return statement;
    }

    /** An sms_outbox row as committed. */
    public record OutboxRow(String businessKey, String orderId, String eventType, String phone, String text,
            String status, int attempts, String lastError, boolean hasSentAt) {
    }
}
