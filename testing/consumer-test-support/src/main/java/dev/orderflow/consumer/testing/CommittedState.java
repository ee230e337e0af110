package dev.orderflow.consumer.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The application's database through connections of its own, outside the application's pool and
 * transactions: sees only what is committed. Uses {@value #DIRECT_URL} when set (the application
 * itself goes through a {@link DatabaseLink} that a test may cut), else the application's JDBC URL.
 */
public final class CommittedState {

    /** Config key of a JDBC URL that reaches the database directly, bypassing a {@link DatabaseLink}. */
    public static final String DIRECT_URL = "orderflow.test.direct-jdbc-url";

    private CommittedState() {
    }

    public static Connection connect() throws SQLException {
        var config = ConfigProvider.getConfig();
        String url = config.getOptionalValue(DIRECT_URL, String.class)
                .orElseGet(() -> config.getValue("quarkus.datasource.jdbc.url", String.class));
        return DriverManager.getConnection(url,
                config.getOptionalValue("quarkus.datasource.username", String.class).orElse("root"),
                config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
    }

    /** The first column of the first row as a long (a count or a sum; 0 for SQL NULL). */
    public static long number(String sql, Object... params) {
        List<Map<String, Object>> rows = rows(sql, params);
        Object value = rows.isEmpty() ? null : rows.get(0).values().iterator().next();
        return value == null ? 0 : ((Number) value).longValue();
    }

    public static List<Map<String, Object>> rows(String sql, Object... params) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, params);
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

    public static int execute(String sql, Object... params) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, params);
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static void bind(PreparedStatement statement, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            statement.setObject(i + 1, params[i]);
        }
    }
}
