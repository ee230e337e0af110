package dev.orderflow.status.service;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;

import dev.orderflow.consumer.BusinessFailure;
import dev.orderflow.consumer.CancelBeforeCreateGuard;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.status.config.StatusServiceConfig;
import dev.orderflow.status.domain.ConsumerOutcome;
import dev.orderflow.status.domain.ConsumerOutcomeId;
import dev.orderflow.status.domain.ConsumerState;
import dev.orderflow.status.domain.Failure;
import dev.orderflow.status.domain.OrderConsumeStatus;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.domain.StateRules;

/**
 * Applies the three inputs (order events, consumer reports, dead letters) to the status tables.
 * Every method runs inside the idempotent-consumer pipeline's transaction, so each message is
 * applied once; the order's row is locked first, so inputs about one order never interleave,
 * whatever channel they come from.
 *
 * <p>Every read here is a locking read. Under REPEATABLE READ a plain read would see the snapshot
 * taken at the transaction's first read (the pipeline's dedupe check), i.e. possibly before the
 * transaction that held the order's lock committed its outcome; locking reads see the latest
 * committed rows.
 *
 * <p>Inputs may arrive in any order. Whatever arrives first creates the order's row; until the
 * create event arrives the row is "unopened" ({@code created_at} NULL, 404 in the API) but
 * collects outcomes, and opening it re-derives the state from everything collected.
 */
@ApplicationScoped
public class StatusRecorder {

    private static final int MAX_REASON_LENGTH = 1024;
    private static final int MAX_ORDER_ID_LENGTH = 64;

    private final EntityManager entityManager;
    private final List<String> requiredConsumers;
    private final Event<OrderStateChanged> stateChanged;

    @Inject
    public StatusRecorder(EntityManager entityManager, StatusServiceConfig config, Event<OrderStateChanged> stateChanged) {
        this.entityManager = entityManager;
        this.requiredConsumers = List.copyOf(config.requiredConsumers());
        this.stateChanged = stateChanged;
    }

    /** A create opens the order; a cancel marks it cancel-requested. */
    public Outcome orderEvent(OrderEvent event) {
        checkOrderId(event.orderId());
        Instant now = now();
        OrderConsumeStatus status = lockOrCreate(event.orderId());
        Snapshot before = Snapshot.of(status);
        if (event.eventType() == OrderEventType.CREATE) {
            status.createdAt = event.occurredAt().truncatedTo(ChronoUnit.MILLIS);
        } else if (status.cancelRequestedAt == null) {
            status.cancelRequestedAt = now;
        }
        reevaluate(status, before, false, now);
        return Outcome.done();
    }

    /** A consumer's DONE / REJECTED / DEAD_LETTERED report. */
    public Outcome report(ConsumerReport report) {
        learn(report.orderId(), report.consumer(), report.eventType(), ConsumerState.of(report.outcome()),
                report.failureClass(), report.reason(), report.occurredAt(), ConsumerOutcome.FROM_REPORT);
        return Outcome.done();
    }

    /** An entry of a required consumer's dead-letter queue. */
    public Outcome deadLetter(DeadLetteredEvent deadLetter) {
        learn(deadLetter.orderId(), deadLetter.consumer(), deadLetter.eventType(), ConsumerState.DEAD_LETTERED,
                deadLetter.failureClass(), deadLetter.reason(), deadLetter.deadLetteredAt(),
                ConsumerOutcome.FROM_DEAD_LETTER_QUEUE);
        return Outcome.done();
    }

    private void learn(String orderId, String consumer, OrderEventType eventType, ConsumerState learned,
            String failureClass, String reason, Instant occurredAt, String source) {
        checkOrderId(orderId);
        Instant now = now();
        OrderConsumeStatus status = lockOrCreate(orderId);
        Snapshot before = Snapshot.of(status);
        if (status.cancelRequestedAt == null && provesCancel(eventType, learned, reason)) {
            status.cancelRequestedAt = now;
        }
        ConsumerOutcome outcome = entityManager.find(ConsumerOutcome.class,
                new ConsumerOutcomeId(orderId, consumer, eventType.tag()), LockModeType.PESSIMISTIC_WRITE);
        boolean outcomeChanged = true;
        if (outcome == null) {
            outcome = new ConsumerOutcome();
            outcome.orderId = orderId;
            outcome.consumer = consumer;
            outcome.eventType = eventType.tag();
            set(outcome, learned, failureClass, reason, occurredAt, source, now);
            entityManager.persist(outcome);
        } else if (StateRules.supersedes(outcome.outcome, learned)) {
            set(outcome, learned, failureClass, reason, occurredAt, source, now);
        } else {
            outcomeChanged = false;
        }
        reevaluate(status, before, outcomeChanged, now);
    }

    private static void set(ConsumerOutcome outcome, ConsumerState learned, String failureClass, String reason,
            Instant occurredAt, String source, Instant now) {
        outcome.outcome = learned;
        outcome.failureClass = failureClass;
        outcome.reason = reason == null || reason.length() <= MAX_REASON_LENGTH ? reason
                : reason.substring(0, MAX_REASON_LENGTH);
        outcome.occurredAt = occurredAt.truncatedTo(ChronoUnit.MILLIS);
        outcome.source = source;
        outcome.recordedAt = now;
    }

    /** Re-derives state, failure and completion from all outcomes; fires {@link OrderStateChanged} when visible. */
    private void reevaluate(OrderConsumeStatus status, Snapshot before, boolean outcomeChanged, Instant now) {
        entityManager.flush();
        List<ConsumerOutcome> outcomes = entityManager.createQuery(
                "select o from ConsumerOutcome o where o.orderId = :orderId", ConsumerOutcome.class)
                .setParameter("orderId", status.orderId)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultList();
        boolean cancelRequested = status.cancelRequested();
        status.state = StateRules.state(requiredConsumers, cancelRequested, outcomes);
        if (status.state != OrderState.FAILED) {
            status.failure(null);
        } else if (status.failure() == null) {
            // First failure wins and stays while the order is FAILED.
            status.failure(StateRules.firstFailure(requiredConsumers, cancelRequested, outcomes));
        }
        Duration completionLatency = null;
        if (status.opened() && status.completedAt == null && status.state == OrderState.COMPLETED) {
            // The moment this service knows every required consumer is DONE for an opened order;
            // never before created_at, even with clock skew between the order service and here.
            status.completedAt = now.isBefore(status.createdAt) ? status.createdAt : now;
            completionLatency = Duration.between(status.createdAt, status.completedAt);
        }
        Snapshot after = Snapshot.of(status);
        if (outcomeChanged || !after.equals(before)) {
            status.updatedAt = now;
        }
        if (after.visibleState() != null && after.visibleState() != before.visibleState()) {
            stateChanged.fire(new OrderStateChanged(status.orderId, status.state, completionLatency));
        }
    }

    /**
     * Locks the order's row, creating it (unopened) first when it does not exist. The insert
     * takes the row lock on a duplicate too (ON DUPLICATE KEY), so two transactions for one new
     * order queue up instead of deadlocking on a shared-then-exclusive lock upgrade.
     */
    private OrderConsumeStatus lockOrCreate(String orderId) {
        entityManager.createNativeQuery("""
                INSERT INTO order_message_consume_status (order_id, state, first_seen_at, updated_at)
                VALUES (:orderId, 'PENDING', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))
                ON DUPLICATE KEY UPDATE order_id = order_id""")
                .setParameter("orderId", orderId)
                .executeUpdate();
        return entityManager.find(OrderConsumeStatus.class, orderId, LockModeType.PESSIMISTIC_WRITE);
    }

    /**
     * Whether an outcome proves the order's cancel was requested, even when the cancel event has
     * not reached this service yet: any outcome of a cancel (a consumer acts on a cancel only after
     * receiving it), and a create REJECTED by {@link CancelBeforeCreateGuard} because that consumer
     * consumed the cancel first. Without the latter such an order would show FAILED until the
     * cancel arrived, though it is being cancelled.
     */
    private static boolean provesCancel(OrderEventType eventType, ConsumerState learned, String reason) {
        return eventType == OrderEventType.CANCEL || learned == ConsumerState.REJECTED
                && CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE.equals(reason);
    }

    /** An id the table cannot hold can never be applied: dead-letter it at once instead of retrying. */
    private static void checkOrderId(String orderId) {
        if (orderId.length() > MAX_ORDER_ID_LENGTH) {
            throw new BusinessFailure("orderId is longer than " + MAX_ORDER_ID_LENGTH + " characters: " + orderId);
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    /** What decides whether anything changed, and what the API shows. */
    private record Snapshot(OrderState state, Instant createdAt, Instant cancelRequestedAt, Instant completedAt,
            Failure failure) {

        static Snapshot of(OrderConsumeStatus status) {
            return new Snapshot(status.state, status.createdAt, status.cancelRequestedAt, status.completedAt,
                    status.failure());
        }

        /** The state the API shows; null while the order is unopened (404). */
        OrderState visibleState() {
            return createdAt == null ? null : state;
        }
    }
}
