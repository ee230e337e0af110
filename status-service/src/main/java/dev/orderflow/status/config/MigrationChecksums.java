package dev.orderflow.status.config;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import jakarta.inject.Singleton;

import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.FlywayException;

import io.quarkus.flyway.FlywayConfigurationCustomizer;

/**
 * Migrations whose text changed after they were applied, in a comment only (no statement): before
 * Flyway validates, a database that recorded the old checksum gets the new one, so it neither fails
 * validation nor needs a repair that would accept any other change. Any other checksum still fails.
 */
@Singleton
public class MigrationChecksums implements FlywayConfigurationCustomizer {

    /** V1_3_0__dlq_console.sql: its first comment line was reworded. */
    static final String VERSION = "1.3.0";
    static final int OLD_CHECKSUM = -134730969;
    static final int NEW_CHECKSUM = 618257657;

    @Override
    public void customize(FluentConfiguration configuration) {
        configuration.callbacks(new CommentOnlyChange());
    }

    private static final class CommentOnlyChange implements Callback {

        @Override
        public boolean supports(Event event, Context context) {
            return event == Event.BEFORE_VALIDATE || event == Event.BEFORE_MIGRATE;
        }

        @Override
        public boolean canHandleInTransaction(Event event, Context context) {
            return true;
        }

        @Override
        public void handle(Event event, Context context) {
            String table = context.getConfiguration().getTable();
            Connection connection = context.getConnection();
            try (ResultSet tables = connection.getMetaData().getTables(connection.getCatalog(), null, table, null)) {
                if (!tables.next()) {
                    return; // a new database: nothing recorded yet
                }
                try (PreparedStatement update = connection.prepareStatement("update " + table
                        + " set checksum = ? where version = ? and checksum = ?")) {
                    update.setInt(1, NEW_CHECKSUM);
                    update.setString(2, VERSION);
                    update.setInt(3, OLD_CHECKSUM);
                    update.executeUpdate();
                }
            } catch (SQLException e) {
                throw new FlywayException("cannot update the recorded checksum of migration " + VERSION, e);
            }
        }

        @Override
        public String getCallbackName() {
            return "comment-only migration changes";
        }
    }
}
