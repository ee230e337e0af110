package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** Purge of consume_record against the real MariaDB (database orderflow_pipeline_test). */
@QuarkusTest
class ConsumeRecordPurgerTest {

    static final String PURGE_GROUP = "purge_test_group";

    @Inject
    ConsumeRecordPurger purger;

    @Inject
    IdempotentConsumerConfig config;

    @Test
    void deletesRowsOlderThanTheRetentionInSmallBatchesAndKeepsTheRest() throws Exception {
        Instant now = Instant.now();
        Instant old = now.minus(config.retention()).minus(Duration.ofHours(1));
        Instant recent = now.minus(config.retention()).plus(Duration.ofHours(1));
        try (Connection connection = Database.connect();
                PreparedStatement insert = connection.prepareStatement("insert into consume_record"
                        + " (consumer_group, message_key, outcome, processed_at) values (?, ?, 'DONE', ?)")) {
            for (int i = 0; i < 5; i++) {
                insertRow(insert, "old-" + i, old);
            }
            insertRow(insert, "recent", recent);
        }

        int purged = purger.purgeExpired();

        assertThat(config.purgeBatchSize()).as("test config: several batches").isEqualTo(2);
        assertThat(purged).isEqualTo(5);
        assertThat(Database.count("select count(*) from consume_record where consumer_group = ? and message_key like 'old-%'",
                PURGE_GROUP)).isZero();
        assertThat(Database.count("select count(*) from consume_record where consumer_group = ? and message_key = 'recent'",
                PURGE_GROUP)).isEqualTo(1);
        assertThat(purger.purgeExpired()).isZero();
    }

    static void insertRow(PreparedStatement insert, String key, Instant processedAt) throws Exception {
        insert.setString(1, PURGE_GROUP);
        insert.setString(2, key);
        // The application stores instants as UTC wall-clock time (quarkus.hibernate-orm.jdbc.timezone=UTC).
        insert.setTimestamp(3, Timestamp.valueOf(LocalDateTime.ofInstant(processedAt, ZoneOffset.UTC)));
        insert.executeUpdate();
    }
}
