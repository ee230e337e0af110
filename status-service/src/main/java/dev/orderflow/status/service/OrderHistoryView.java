package dev.orderflow.status.service;

import java.time.Instant;
import java.util.List;

import dev.orderflow.status.domain.ConsumerState;
import dev.orderflow.status.domain.Failure;
import dev.orderflow.status.domain.OrderState;

/**
 * An opened order's flags per event and when the order reached each of its states: what the
 * dashboard's order view shows.
 *
 * @param events the create, then the cancel when one was requested, then the compensation (the
 *               fail event) when the order was decided FAILED or a consumer reported a reversal
 * @param customerId the order's customer (not shown; decides who may read it)
 */
public record OrderHistoryView(String orderId, OrderState state, Instant createdAt, Instant cancelRequestedAt,
        Instant completedAt, Instant failedAt, Instant cancelledAt, Failure failure, List<EventFlags> events,
        String customerId) {

    /** Each required consumer's flag for one event of the order, in the configured order. */
    public record EventFlags(String event, List<ConsumerFlag> consumers) {
    }

    /**
     * One consumer's outcome of one event; {@code state} PENDING with every other field null while
     * nothing was heard from it.
     *
     * @param occurredAt when the consumer committed the outcome, or the message was dead-lettered
     * @param recordedAt when this service recorded it
     * @param source     where this service learned it: {@code report} or {@code dead-letter-queue}
     * @param failureClass format, business or system when the outcome failed (a rejection is business)
     */
    public record ConsumerFlag(String consumer, ConsumerState state, Instant occurredAt, Instant recordedAt,
            String source, String failureClass, String reason) {
    }
}
