package dev.orderflow.status.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The consumers' {@code consume_record} table in the test databases behind the read-only
 * datasources {@code inventory-db}, {@code points-db}, {@code sms-db} (real MariaDB), created from
 * the idempotent-consumer migration {@code db/migration/common/V1_0__consume_record.sql} itself,
 * the source of truth (no copy of its columns here).
 */
public final class ConsumeRecordTables {

    /** Test database of each consumer, as in %test of application.properties. */
    static final Map<String, String> DATABASES = Map.of(
            "inventory", "orderflow_status_test_inventory",
            "points", "orderflow_status_test_points",
            "sms", "orderflow_status_test_sms");

    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";
    /** The source of truth of consume_record (shipped in the idempotent-consumer jar). */
    private static final String PIPELINE_MIGRATION = "db/migration/common/V1_0__consume_record.sql";

    private ConsumeRecordTables() {
    }

    /**
     * Creates what is missing. Called before the tests rather than as a test resource: the
     * application reads these tables only per request, and the same resource set as the other
     * status tests lets every test class share one application start.
     */
    static synchronized void ensure() {
        List<String> statements = pipelineTables();
        for (String database : DATABASES.values()) {
            execute(SERVER, List.of("CREATE DATABASE IF NOT EXISTS " + database));
            execute(SERVER + database, statements);
        }
    }

    /** The CREATE TABLE statements of the pipeline's own migration, made idempotent. */
    private static List<String> pipelineTables() {
        try (InputStream in = ConsumeRecordTables.class.getClassLoader().getResourceAsStream(PIPELINE_MIGRATION)) {
            if (in == null) {
                throw new IllegalStateException(PIPELINE_MIGRATION + " not on the test classpath (idempotent-consumer)");
            }
            String script = new String(in.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?m)^--.*$", "");
            return Arrays.stream(script.split(";")).map(String::strip).filter(sql -> sql.startsWith("CREATE TABLE "))
                    .map(sql -> sql.replaceFirst("CREATE TABLE ", "CREATE TABLE IF NOT EXISTS ")).toList();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read " + PIPELINE_MIGRATION, e);
        }
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
