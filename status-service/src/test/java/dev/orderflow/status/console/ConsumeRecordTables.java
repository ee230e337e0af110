package dev.orderflow.status.console;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * The consumers' {@code consume_record} table in the test databases behind the read-only
 * datasources {@code inventory-db}, {@code points-db}, {@code sms-db} (real MariaDB). Only the
 * columns come from here: the idempotent-consumer migration
 * {@code db/migration/common/V1_0__consume_record.sql} is the source of truth.
 */
public class ConsumeRecordTables implements QuarkusTestResourceLifecycleManager {

    /** Test database of each consumer, as in %test of application.properties. */
    static final Map<String, String> DATABASES = Map.of(
            "inventory", "orderflow_status_test_inventory",
            "points", "orderflow_status_test_points",
            "sms", "orderflow_status_test_sms");

    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";

    @Override
    public Map<String, String> start() {
        for (String database : DATABASES.values()) {
            execute(SERVER, List.of("CREATE DATABASE IF NOT EXISTS " + database));
            execute(SERVER + database, List.of("""
                    CREATE TABLE IF NOT EXISTS consume_record (
                        id             BIGINT       NOT NULL AUTO_INCREMENT,
                        consumer_group VARCHAR(128) NOT NULL,
                        message_key    VARCHAR(255) NOT NULL,
                        msg_id         VARCHAR(128) NULL,
                        outcome        VARCHAR(16)  NOT NULL,
                        outcome_reason VARCHAR(1024) NULL,
                        processed_at   DATETIME(3)  NOT NULL,
                        PRIMARY KEY (id),
                        CONSTRAINT uk_consume_record_group_key UNIQUE (consumer_group, message_key),
                        INDEX ix_consume_record_processed_at (processed_at)
                    ) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4"""));
        }
        return Map.of();
    }

    @Override
    public void stop() {
        // Rows are keyed by unique order ids; the tables stay for the next run.
    }

    /** What the consumer's pipeline writes once its effect committed. */
    static void recordConsumed(String consumer, String consumerGroup, String messageKey) {
        try (Connection connection = DriverManager.getConnection(SERVER + DATABASES.get(consumer), "root", "");
                PreparedStatement insert = connection.prepareStatement("insert into consume_record"
                        + " (consumer_group, message_key, outcome, processed_at) values (?, ?, 'DONE', now(3))")) {
            insert.setString(1, consumerGroup);
            insert.setString(2, messageKey);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot record " + messageKey + " as consumed by " + consumerGroup, e);
        }
    }

    private static void execute(String url, List<String> statements) {
        try (Connection connection = DriverManager.getConnection(url, "root", "");
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare " + url, e);
        }
    }
}
