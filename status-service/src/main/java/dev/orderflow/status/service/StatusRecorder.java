package dev.orderflow.status.service;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.hibernate.StatelessSession;


import dev.orderflow.consumer.BusinessFailure;
import dev.orderflow.consumer.CancelBeforeCreateGuard;
import dev.orderflow.consumer.ConsumeReporter;
import dev.orderflow.consumer.LockedRows;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.consumer.PendingReport;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.order.events.OrderOutcomeJson;
import dev.orderflow.persistence.NativeSql;
import dev.orderflow.status.config.StatusServiceConfig;
import dev.orderflow.status.domain.ConsumerOutcome;
import dev.orderflow.status.domain.ConsumerState;
import dev.orderflow.status.domain.Failure;
import dev.orderflow.status.domain.OrderConsumeStatus;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.domain.StateRules;

/**
 * Applies the three inputs (order events, consumer reports, dead letters) to the status tables,
 * and publishes each order's outcome (COMPLETED, FAILED, CANCELLED) to order_outcome_topic through
 * the outbox, in the transaction that decided it.
 * Every method runs inside the idempotent-consumer pipeline's transaction, so each message is
 * applied once; the order's row is locked first, so inputs about one order never interleave,
 * whatever channel they come from.
 *
 * <p>Every read here is a locking read, so it sees the latest committed rows whatever the isolation
 * level: the datasource runs READ COMMITTED, but under REPEATABLE READ a plain read would see the
 * snapshot taken at the transaction's first read (the pipeline's dedupe check), i.e. possibly before
 * the transaction that held the order's lock committed its outcome.
 *
 * <p>The rows are read and written a batch's worth at a time through the transaction's stateless
 * session: one statement creates and locks every order of the batch, two load them with their
 * outcomes, and the changed status and outcome rows are written with one upsert each at the
 * batch's end ({@link NativeSql}). Managed entities cost the largest part of the service's CPU per
 * message (dirty checks at the flush, an UPDATE per changed row) and held a batch's rows in the
 * persistence context.
 *
 * <p>Inputs may arrive in any order. Whatever arrives first creates the order's row; until the
 * create event arrives the row is "unopened" ({@code created_at} NULL, 404 in the API) but
 * collects outcomes, and opening it re-derives the state from everything collected.
 */
@ApplicationScoped
public class StatusRecorder {

    private static final int MAX_REASON_LENGTH = 1024;
    private static final int MAX_ORDER_ID_LENGTH = 64;
    private static final String STATUS_TABLE = OrderConsumeStatus.TABLE;
    private static final String OUTCOME_TABLE = ConsumerOutcome.TABLE;

    private final StatelessSession rows;
    private final List<String> requiredConsumers;
    private final Event<OrderStateChanged> stateChanged;
    private final TransactionSynchronizationRegistry transactions;
    private final ConsumeReporter outbox;

    @Inject
    public StatusRecorder(StatelessSession rows, StatusServiceConfig config, Event<OrderStateChanged> stateChanged,
            TransactionSynchronizationRegistry transactions, ConsumeReporter outbox) {
        this.rows = rows;
        this.requiredConsumers = List.copyOf(config.requiredConsumers());
        this.stateChanged = stateChanged;
        this.transactions = transactions;
        this.outbox = outbox;
    }

    /** A create opens the order; a cancel marks it cancel-requested. Other events change nothing here. */
    public Outcome orderEvent(OrderEvent event) {
        checkOrderId(event.orderId());
        Instant now = now();
        LockedRows<String, OrderRows> orders = lockedOrders();
        OrderRows order = orders.row(event.orderId());
        OrderConsumeStatus status = order.status;
        Snapshot before = Snapshot.of(status);
        if (event.eventType() == OrderEventType.CREATE) {
            status.createdAt = event.occurredAt().truncatedTo(ChronoUnit.MILLIS);
            status.customerId = event.customerId();
        } else if (event.eventType() == OrderEventType.CANCEL && status.cancelRequestedAt == null) {
            status.cancelRequestedAt = now;
        }
        reevaluate(orders, order, before, false, now);
        orders.writeUnlessDeferred();
        return Outcome.done();
    }

    /**
     * An operator's approved abandon of an order in ATTENTION: decided FAILED with the dead letter's
     * consumer and class and the operator's words, its outcome published (so order-service starts the
     * compensation). Runs in the caller's transaction.
     *
     * @throws IllegalStateException when the order is not in ATTENTION
     */
    public void abandon(String orderId, Failure failure) {
        checkOrderId(orderId);
        Instant now = now();
        LockedRows<String, OrderRows> orders = lockedOrders();
        OrderRows order = orders.row(orderId);
        OrderConsumeStatus status = order.status;
        if (status.state != OrderState.ATTENTION || !status.opened() || status.cancelRequested()) {
            throw new IllegalStateException("order " + orderId + " is " + status.state
                    + (status.cancelRequested() ? " (being cancelled)" : "") + ", not waiting for an operator");
        }
        Snapshot before = Snapshot.of(status);
        status.failure(failure);
        status.failedAt = now;
        publish(order, OrderOutcome.failed(orderId, new OrderFailure(failure.consumer(), failure.failureClass(),
                failure.reason()), now), orderId + ":abandon");
        reevaluate(orders, order, before, false, now);
        orders.writeUnlessDeferred();
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
        LockedRows<String, OrderRows> orders = lockedOrders();
        OrderRows order = orders.row(orderId);
        OrderConsumeStatus status = order.status;
        List<ConsumerOutcome> outcomes = order.outcomes;
        Snapshot before = Snapshot.of(status);
        if (status.cancelRequestedAt == null && provesCancel(eventType, learned, reason)) {
            status.cancelRequestedAt = now;
        }
        ConsumerOutcome outcome = outcomes.stream()
                .filter(o -> o.consumer.equals(consumer) && o.eventType.equals(eventType.tag()))
                .findFirst().orElse(null);
        boolean outcomeChanged = true;
        if (outcome == null) {
            outcome = new ConsumerOutcome();
            outcome.orderId = orderId;
            outcome.consumer = consumer;
            outcome.eventType = eventType.tag();
            outcomes.add(outcome);
        } else if (!StateRules.supersedes(outcome.outcome, learned)) {
            outcomeChanged = false;
        }
        if (outcomeChanged) {
            set(outcome, learned, failureClass, reason, occurredAt, source, now);
            order.changedOutcomes.add(outcome);
        }
        reevaluate(orders, order, before, outcomeChanged, now);
        orders.writeUnlessDeferred();
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

    /**
     * Re-derives state, failure and completion from all outcomes; publishes the order's outcome the
     * first time an opened order reaches COMPLETED, FAILED or CANCELLED (in this transaction, through
     * the outbox); fires {@link OrderStateChanged} when visible.
     */
    private void reevaluate(LockedRows<String, OrderRows> orders, OrderRows order, Snapshot before,
            boolean outcomeChanged, Instant now) {
        OrderConsumeStatus status = order.status;
        List<ConsumerOutcome> outcomes = order.outcomes;
        boolean cancelRequested = status.cancelRequested();
        status.state = StateRules.state(requiredConsumers, cancelRequested, status.failedAt != null, outcomes);
        if (status.state == OrderState.FAILED) {
            if (status.failure() == null) {
                // First business failure wins and stays: it is what the compensation is for.
                status.failure(StateRules.businessFailure(requiredConsumers, outcomes));
            }
            if (status.opened() && status.failedAt == null) {
                status.failedAt = now;
                Failure failure = status.failure();
                publish(order, OrderOutcome.failed(status.orderId, new OrderFailure(failure.consumer(),
                        failure.failureClass(), failure.reason()), now), status.orderId + ":failed");
            }
        } else if (status.state == OrderState.ATTENTION) {
            // What the order waits for: the first failed outcome of the event it follows.
            status.failure(StateRules.firstFailure(requiredConsumers, cancelRequested, outcomes));
        } else {
            status.failure(null);
        }
        Duration completionLatency = null;
        if (status.opened() && status.completedAt == null && status.state == OrderState.COMPLETED) {
            // The moment this service knows every required consumer is DONE for an opened order;
            // never before created_at, even with clock skew between the order service and here.
            status.completedAt = now.isBefore(status.createdAt) ? status.createdAt : now;
            completionLatency = Duration.between(status.createdAt, status.completedAt);
            publish(order, OrderOutcome.completed(status.orderId, status.completedAt), status.orderId + ":completed");
        }
        if (status.opened() && status.cancelledAt == null && status.state == OrderState.CANCELLED) {
            status.cancelledAt = now;
            publish(order, OrderOutcome.cancelled(status.orderId, now), status.orderId + ":cancelled");
        }
        Snapshot after = Snapshot.of(status);
        if (outcomeChanged || !after.equals(before)) {
            status.updatedAt = now;
            orders.changed(status.orderId);
        }
        if (after.visibleState() != null && after.visibleState() != before.visibleState()) {
            stateChanged.fire(new OrderStateChanged(status.orderId, status.state, completionLatency));
        }
    }

    /**
     * The orders locked by the current transaction, with their outcomes. In a batch of the pipeline
     * the first call locks every order of the batch at once (sorted by id, so that concurrent
     * batches take the rows in the same order) and the changed rows are written at the batch's end.
     */
    private LockedRows<String, OrderRows> lockedOrders() {
        return LockedRows.of(transactions, OrderRows.class, payload -> {
            String orderId = payload instanceof OrderEvent event ? event.orderId()
                    : payload instanceof ConsumerReport report ? report.orderId()
                    : payload instanceof DeadLetteredEvent deadLetter ? deadLetter.orderId()
                    : null;
            // Ids the table cannot hold are dead-lettered by their own message (checkOrderId).
            return orderId == null || orderId.length() > MAX_ORDER_ID_LENGTH ? List.of() : List.of(orderId);
        }, this::lockOrders, this::writeOrders);
    }

    /**
     * Locks the orders' rows, creating the missing ones (unopened) first, and loads them with their
     * outcomes: three statements for any number of orders. The insert takes the row lock on a
     * duplicate too (ON DUPLICATE KEY), so two transactions for one new order queue up instead of
     * deadlocking on a shared-then-exclusive lock upgrade. The reads are held to the primary key
     * ({@link NativeSql#PRIMARY_KEY_HINT}), so native.
     */
    private Map<String, OrderRows> lockOrders(List<String> orderIds) {
        Instant now = now();
        NativeSql.insertMissing(rows, STATUS_TABLE, List.of("order_id", "state", "first_seen_at", "updated_at"),
                orderIds.stream().<List<?>> map(orderId -> List.of(orderId, OrderState.PENDING, now, now)).toList(),
                "order_id");
        Map<String, OrderRows> orders = new HashMap<>();
        for (OrderConsumeStatus status : rows.createNativeQuery("select * from " + STATUS_TABLE
                + NativeSql.PRIMARY_KEY_HINT + " where order_id in (:orderIds) for update", OrderConsumeStatus.class)
                .setParameterList("orderIds", orderIds).getResultList()) {
            orders.put(status.orderId, new OrderRows(status));
        }
        for (ConsumerOutcome outcome : rows.createNativeQuery("select * from " + OUTCOME_TABLE
                + NativeSql.PRIMARY_KEY_HINT + " where order_id in (:orderIds) for update", ConsumerOutcome.class)
                .setParameterList("orderIds", orderIds).getResultList()) {
            orders.get(outcome.orderId).outcomes.add(outcome);
        }
        return orders;
    }

    /**
     * Writes the changed rows: one statement for the statuses, one for the outcomes (the rows are
     * locked), one for the outcome messages to publish.
     */
    private void writeOrders(List<OrderRows> changed) {
        NativeSql.upsert(rows, STATUS_TABLE, List.of("order_id", "customer_id", "state", "created_at",
                "cancel_requested_at", "first_seen_at", "updated_at", "completed_at", "failed_at", "cancelled_at",
                "failure_consumer", "failure_class", "failure_reason"), changed.stream().map(order -> order.status)
                        .<List<?>> map(s -> Arrays.asList(s.orderId, s.customerId, s.state, s.createdAt,
                                s.cancelRequestedAt, s.firstSeenAt, s.updatedAt, s.completedAt, s.failedAt,
                                s.cancelledAt, s.failureConsumer, s.failureClass, s.failureReason)).toList(),
                List.of("order_id"));
        List<PendingReport> published = changed.stream().flatMap(order -> order.published.stream()).toList();
        outbox.enqueue(published);
        changed.forEach(order -> order.published.clear());
        NativeSql.upsert(rows, OUTCOME_TABLE, List.of("order_id", "consumer", "event_type", "outcome",
                "failure_class", "reason", "occurred_at", "source", "recorded_at"),
                changed.stream().flatMap(order -> order.changedOutcomes.stream()).<List<?>> map(o -> Arrays.asList(
                        o.orderId, o.consumer, o.eventType, o.outcome, o.failureClass, o.reason, o.occurredAt,
                        o.source, o.recordedAt)).toList(),
                List.of("order_id", "consumer", "event_type"));
        changed.forEach(order -> order.changedOutcomes.clear());
    }

    /** One order's status row and outcome rows as this transaction holds them. */
    private static final class OrderRows {
        final OrderConsumeStatus status;
        final List<ConsumerOutcome> outcomes = new ArrayList<>();
        /** Outcomes new or changed since the last write. */
        final Set<ConsumerOutcome> changedOutcomes = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Outcome messages to put into the outbox with the next write. */
        final List<PendingReport> published = new ArrayList<>();

        OrderRows(OrderConsumeStatus status) {
            this.status = status;
        }
    }

    /**
     * Queues the order's outcome for the outbox (written with the order's row, sent after the
     * commit). {@code cause}: what decided it, for the operator.
     */
    private static void publish(OrderRows order, OrderOutcome outcome, String cause) {
        PendingReport message = new PendingReport();
        message.consumerGroup = "status-service";
        message.messageKey = cause;
        message.reportKey = outcome.messageKey();
        message.consumer = outcome.tag();
        message.outcome = outcome.outcome().name();
        message.body = OrderOutcomeJson.toJson(outcome);
        message.createdAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        order.published.add(message);
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
            Instant failedAt, Instant cancelledAt, Failure failure) {

        static Snapshot of(OrderConsumeStatus status) {
            return new Snapshot(status.state, status.createdAt, status.cancelRequestedAt, status.completedAt,
                    status.failedAt, status.cancelledAt, status.failure());
        }

        /** The state the API shows; null while the order is unopened (404). */
        OrderState visibleState() {
            return createdAt == null ? null : state;
        }
    }
}
