package dev.orderflow.order;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The test database (orderflow_order_test on the real MariaDB) through its own connection: sees
 * only committed rows.
 */
public final class OrderDatabase {

    public static final String URL = "jdbc:mariadb://127.0.0.1:3306/orderflow_order_test";

    private OrderDatabase() {
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, "root", "");
    }

    public static long count(String sql, Object... params) {
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

    public static long ordersOfCustomer(String customerId) {
        return count("select count(*) from orders where customer_id = ?", customerId);
    }

    public static void execute(String sql, Object... params) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
