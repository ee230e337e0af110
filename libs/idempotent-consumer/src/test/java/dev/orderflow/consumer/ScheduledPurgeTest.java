package dev.orderflow.consumer;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The purge runs by itself, as a job of Quarkus' scheduler, every purge-interval from boot: an expired
 * consume_record row disappears without anyone calling the purger. Real MariaDB.
 */
@QuarkusTest
@TestProfile(ScheduledPurgeTest.PurgeEverySecond.class)
class ScheduledPurgeTest {

    /** The purge every second. */
    public static class PurgeEverySecond implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orderflow.idempotent-consumer.purge-interval", "PT1S");
        }
    }

    @Inject
    IdempotentConsumerConfig config;

    @Test
    void anExpiredRowIsPurgedWithoutAnyoneAsking() throws Exception {
        Instant expired = Instant.now().minus(config.retention()).minus(Duration.ofHours(1));
        Instant kept = Instant.now().minus(config.retention()).plus(Duration.ofHours(1));
        try (Connection connection = Database.connect();
                PreparedStatement insert = connection.prepareStatement("insert into consume_record"
                        + " (consumer_group, message_key, outcome, processed_at) values (?, ?, 'DONE', ?)")) {
            ConsumeRecordPurgerTest.insertRow(insert, "scheduled-expired", expired);
            ConsumeRecordPurgerTest.insertRow(insert, "scheduled-kept", kept);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> Database.count("select count(*) from consume_record"
                + " where consumer_group = ? and message_key = 'scheduled-expired'", ConsumeRecordPurgerTest.PURGE_GROUP) == 0);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> Database.count(
                "select count(*) from consume_record where consumer_group = ? and message_key = 'scheduled-kept'",
                ConsumeRecordPurgerTest.PURGE_GROUP) == 1);
    }
}
