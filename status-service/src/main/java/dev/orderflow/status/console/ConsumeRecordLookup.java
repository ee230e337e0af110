package dev.orderflow.status.console;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.DataSource;

/**
 * Whether a consumer group already consumed a message key: a row in that consumer's
 * {@code consume_record} (idempotent-consumer), read through the consumer's read-only named
 * datasource ({@link ConsoleConfig#datasourceOf}). A re-drive of such a key is a no-op for the
 * consumer; the console shows it so that the operator knows.
 */
@ApplicationScoped
public class ConsumeRecordLookup {

    private static final Logger LOG = Logger.getLogger(ConsumeRecordLookup.class);

    private final Instance<AgroalDataSource> dataSources;
    private final ConsoleConfig config;

    ConsumeRecordLookup(@Any Instance<AgroalDataSource> dataSources, ConsoleConfig config) {
        this.dataSources = dataSources;
        this.config = config;
    }

    /**
     * @return true/false, or null when it cannot be known (no such datasource, database down): the
     *         console shows "unknown" rather than failing the whole listing
     */
    public Boolean consumed(String consumer, String consumerGroup, String messageKey) {
        if (messageKey == null) {
            return false;
        }
        String name = config.datasourceOf(consumer);
        Instance<AgroalDataSource> selected = dataSources.select(new DataSource.DataSourceLiteral(name));
        if (!selected.isResolvable()) {
            LOG.warnf("No datasource %s for consumer %s: consume_record not checked", name, consumer);
            return null;
        }
        try (Connection connection = selected.get().getConnection();
                PreparedStatement query = connection.prepareStatement(
                        "select 1 from consume_record where consumer_group = ? and message_key = ?")) {
            query.setString(1, consumerGroup);
            query.setString(2, messageKey);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            LOG.warnf("Cannot read consume_record of %s through %s: %s", consumerGroup, name, e.getMessage());
            return null;
        }
    }
}
