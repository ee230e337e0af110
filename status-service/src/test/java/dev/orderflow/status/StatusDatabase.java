package dev.orderflow.status;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The test database (orderflow_status_test on the real MariaDB) through its own connection: committed rows only. */
public final class StatusDatabase {

    private static final String URL = "jdbc:mariadb://127.0.0.1:3306/orderflow_status_test";

    private StatusDatabase() {
    }

    public static long count(String sql, Object... params) {
        try (Connection connection = DriverManager.getConnection(URL, "root", "");
                PreparedStatement statement = connection.prepareStatement(sql)) {
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

    /** How often the pipeline recorded (group, key) as consumed: 1 means applied once. */
    public static long consumeRecords(String consumerGroup, String messageKey) {
        return count("select count(*) from consume_record where consumer_group = ? and message_key = ?",
                consumerGroup, messageKey);
    }
}
