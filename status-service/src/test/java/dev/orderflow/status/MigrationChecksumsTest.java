package dev.orderflow.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.junit.jupiter.api.Test;

import dev.orderflow.status.config.MigrationChecksums;

/**
 * A database that applied V1_3_0 before its first comment was reworded still migrates; one whose
 * recorded checksum is anything else still fails validation. Real MariaDB, a scratch database.
 */
class MigrationChecksumsTest {

    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";
    private static final String DATABASE = "orderflow_status_checksum_test";

    @Test
    void theOldChecksumOfTheRewordedCommentIsAcceptedAndAnyOtherIsNot() throws Exception {
        try (Connection server = DriverManager.getConnection(SERVER, "root", "");
                Statement statement = server.createStatement()) {
            statement.execute("drop database if exists " + DATABASE);
            statement.execute("create database " + DATABASE);
        }
        flyway().load().migrate();

        recordChecksum(-134730969);
        flyway().load().migrate();
        assertThat(recordedChecksum()).isEqualTo(618257657);

        recordChecksum(12345);
        assertThatThrownBy(() -> flyway().load().migrate()).isInstanceOf(FlywayValidateException.class);
    }

    private static FluentConfiguration flyway() {
        FluentConfiguration configuration = Flyway.configure().dataSource(SERVER + DATABASE, "root", "")
                .locations("classpath:db/migration").cleanDisabled(true);
        new MigrationChecksums().customize(configuration);
        return configuration;
    }

    private static void recordChecksum(int checksum) throws Exception {
        try (Connection connection = DriverManager.getConnection(SERVER + DATABASE, "root", "");
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("update flyway_schema_history set checksum = " + checksum + " where version = '1.3.0'");
        }
    }

    private static int recordedChecksum() throws Exception {
        try (Connection connection = DriverManager.getConnection(SERVER + DATABASE, "root", "");
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("select checksum from flyway_schema_history where version = '1.3.0'")) {
            row.next();
            return row.getInt(1);
        }
    }
}
