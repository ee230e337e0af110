package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.Test;

import dev.orderflow.persistence.DateTimeJdbcType;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Instants go to DATETIME(3) columns as UTC wall-clock time and come back unchanged, through the
 * TIMESTAMP type persistence-defaults puts in place of Hibernate's.
 */
@QuarkusTest
class DateTimeColumnsTest {

    @Inject
    SessionFactory sessionFactory;

    @Inject
    StatelessSession session;

    @Test
    void theTimestampTypeIsTheOneThatBindsLocalDateTimes() {
        assertThat(sessionFactory.unwrap(SessionFactoryImplementor.class).getTypeConfiguration().getJdbcTypeRegistry()
                .getDescriptor(Types.TIMESTAMP)).isInstanceOf(DateTimeJdbcType.class);
    }

    @Test
    void anInstantIsStoredAsUtcWallClockTimeAndReadBackUnchanged() {
        Instant processedAt = Instant.parse("2026-03-29T01:30:00.125Z");
        ConsumeRecord record = new ConsumeRecord();
        record.consumerGroup = "datetime_test_group";
        record.messageKey = "O-" + UUID.randomUUID() + ":create";
        record.outcome = Outcome.Status.DONE;
        record.processedAt = processedAt;
        QuarkusTransaction.requiringNew().run(() -> session.insertMultiple(List.of(record)));

        assertThat(Database.rows("select date_format(processed_at, '%Y-%m-%d %H:%i:%s.%f') as stored from consume_record"
                + " where message_key = ?", record.messageKey).get(0).get("stored")).isEqualTo("2026-03-29 01:30:00.125000");
        Instant read = QuarkusTransaction.requiringNew().call(() -> session.createSelectionQuery(
                "select r.processedAt from ConsumeRecord r where r.messageKey = :key", Instant.class)
                .setParameter("key", record.messageKey).getSingleResult());
        assertThat(read).isEqualTo(processedAt);
    }
}
