package dev.orderflow.consumer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;

import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Looks at the test database through its own JDBC connection, outside the application's pool and
 * transactions: it sees only what is committed.
 */
final class Database {

    private Database() {
    }

    static Connection connect() throws SQLException {
        String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
        return DriverManager.getConnection(url, "root", "");
    }

    static long count(String sql, Object... params) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static List<Map<String, Object>> rows(String sql, Object... params) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
                List<Map<String, Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
                        row.put(rs.getMetaData().getColumnLabel(c), rs.getObject(c));
                    }
                    rows.add(row);
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static long effects(String key) {
        return count("select count(*) from test_effect where message_key = ?", key);
    }

    static long consumeRecords(String key) {
        return count("select count(*) from consume_record where consumer_group = ? and message_key = ?",
                Deliveries.GROUP, key);
    }

    static List<Map<String, Object>> failures(String key) {
        return rows("select failure_class, permanent, reason, attempt, msg_id from consume_failure"
                + " where consumer_group = ? and message_key = ? order by id", Deliveries.GROUP, key);
    }
}
