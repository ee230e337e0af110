package dev.orderflow.consumer;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Writes a {@link ConsumeFailure} row per failed delivery attempt in a transaction of its own, so
 * the record survives the rollback of the business transaction, and fires {@link ConsumeFailed}
 * inside it.
 */
@ApplicationScoped
public class ConsumeFailureRecorder {

    private final Event<ConsumeFailed> failedEvent;

    @Inject
    public ConsumeFailureRecorder(Event<ConsumeFailed> failedEvent) {
        this.failedEvent = failedEvent;
    }

    /** Persists the failure and notifies observers, in a new transaction. */
    public void record(ConsumeFailed failure) {
        QuarkusTransaction.requiringNew().run(() -> {
            ConsumeFailure row = new ConsumeFailure();
            row.consumerGroup = failure.consumerGroup();
            row.messageKey = failure.messageKey();
            row.msgId = failure.msgId();
            row.failureClass = failure.failureClass().label();
            row.permanent = failure.permanent();
            row.reason = truncate(failure.reason() == null ? "(no reason)" : failure.reason());
            row.attempt = failure.attempt();
            row.failedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            row.persist();
            failedEvent.fire(failure);
        });
    }

    static String truncate(String text) {
        return text == null || text.length() <= ConsumeFailure.MAX_REASON_LENGTH ? text
                : text.substring(0, ConsumeFailure.MAX_REASON_LENGTH);
    }
}
