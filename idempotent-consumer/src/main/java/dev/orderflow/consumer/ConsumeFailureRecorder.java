package dev.orderflow.consumer;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import javax.sql.DataSource;

import dev.orderflow.sql.BatchSql;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Writes consume_failure rows (one per failed delivery attempt, table from
 * {@code V1_0__consume_record.sql}; the operator queries them by {@code (consumer_group, message_key)})
 * in a transaction of their own, so the record survives the rollback of the business transaction,
 * and fires {@link ConsumeFailed} inside it.
 */
@ApplicationScoped
public class ConsumeFailureRecorder {

    static final int MAX_REASON_LENGTH = 1024;

    private final DataSource dataSource;
    private final Event<ConsumeFailed> failedEvent;

    @Inject
    public ConsumeFailureRecorder(DataSource dataSource, Event<ConsumeFailed> failedEvent) {
        this.dataSource = dataSource;
        this.failedEvent = failedEvent;
    }

    /** Persists the failure and notifies observers, in a new transaction. */
    public void record(ConsumeFailed failure) {
        QuarkusTransaction.requiringNew().run(() -> {
            BatchSql.insert(dataSource, "consume_failure", List.of("consumer_group", "message_key", "msg_id",
                    "failure_class", "permanent", "reason", "attempt", "failed_at"), List.of(Arrays.asList(
                            failure.consumerGroup(), failure.messageKey(), failure.msgId(),
                            failure.failureClass().label(), failure.permanent(),
                            truncate(failure.reason() == null ? "(no reason)" : failure.reason()), failure.attempt(),
                            Instant.now().truncatedTo(ChronoUnit.MILLIS))));
            failedEvent.fire(failure);
        });
    }

    static String truncate(String text) {
        return text == null || text.length() <= MAX_REASON_LENGTH ? text : text.substring(0, MAX_REASON_LENGTH);
    }
}
