package dev.orderflow.consumer;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.hibernate.StatelessSession;


import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.persistence.NativeSql;

/**
 * Makes create and cancel (or fail) of one order take effect in that order in a consumer group,
 * although transactional messages land on any queue and a cancel may be consumed before its create.
 *
 * <p>The choice (a per-group tombstone): a cancel whose create this group has not consumed applies
 * nothing, leaves a tombstone ({@code CANCELLED_BEFORE_CREATE}) and is consumed as DONE (the order
 * is cancelled as far as this consumer is concerned: there is nothing to reverse). A create that
 * finds the tombstone applies nothing and is consumed as REJECTED with reason
 * {@value #CANCELLED_BEFORE_CREATE}. So no effect is ever applied for a cancelled order, nothing
 * waits or retries, and the status service sees cancel DONE from every consumer (the order is
 * CANCELLED; it must let the cancel win over that late REJECTED create).
 *
 * <p>How: every create and cancel of the order first locks the group's {@code order_event_progress}
 * row for the order (creating it if needed), inside the pipeline's transaction, so concurrent
 * deliveries of the two events on two queues or two instances are decided one after the other.
 * In a batch, the rows of all the batch's orders are locked by the first event's call, in
 * order-id order, and the new states are written in one statement before the commit. Use it
 * through {@link GuardedOrderEvents}, or inside a {@link MessageHandler}:
 *
 * <pre>{@code
 * (event, context) -> guard.apply(event, context, () -> event.eventType() == CREATE ? deduct(event) : restore(event))
 * }</pre>
 *
 * <p><b>Isolation:</b> the lock is granted inside a transaction that has already read (the
 * pipeline's dedupe check). Under MariaDB's default REPEATABLE READ, plain reads then still see the
 * snapshot from before the other event committed: a cancel serialized behind its create would not
 * see the create's rows and reverse nothing. So the effect must read the order's rows with locking
 * reads ({@code FOR UPDATE}, which always see the latest commit), and services using the guard run
 * their datasource at {@code READ COMMITTED}
 * ({@code quarkus.datasource.jdbc.transaction-isolation-level=read-committed}).
 *
 * <p>The fail event (an order that failed for a business reason) follows the same rule: its
 * compensation runs once, whichever of create and fail comes first; a fail before the create
 * leaves the tombstone {@code FAILED_BEFORE_CREATE}, and the late create is REJECTED
 * {@value #FAILED_BEFORE_CREATE}, so the create never takes effect after its compensation.
 *
 * <p>Tombstones must outlive the longest delay between a cancel and its create (the retry window);
 * they are purged with consume_record ({@link ConsumeRecordPurger}).
 */
@ApplicationScoped
public class CancelBeforeCreateGuard {

    /** Reason of the REJECTED outcome of a create consumed after its cancel. */
    public static final String CANCELLED_BEFORE_CREATE = "cancelled before create";

    /** Reason of the REJECTED outcome of a create consumed after its order's fail event. */
    public static final String FAILED_BEFORE_CREATE = "failed before create";

    /** What the group has consumed for an order. */
    enum State {
        /** The create was consumed (applied or rejected); a cancel reverses what it did. */
        CREATED,
        /** A cancel came first: the tombstone. A create after it applies nothing. */
        CANCELLED_BEFORE_CREATE,
        /** Create, then cancel were consumed. */
        CANCELLED,
        /** The order's fail event came first: its compensation ran on nothing, and a create after it applies nothing. */
        FAILED_BEFORE_CREATE,
        /** Create, then fail were consumed. */
        FAILED
    }

    /** The state column of a row created by a lock, before the group consumed anything of the order. */
    private static final String NEW = "NEW";

    /** The business change of a create or cancel, run only when the guard lets the event through. */
    @FunctionalInterface
    public interface Effect {
        Outcome apply() throws Exception;
    }

    private final StatelessSession rows;
    private final TransactionSynchronizationRegistry transactions;

    @Inject
    public CancelBeforeCreateGuard(StatelessSession rows, TransactionSynchronizationRegistry transactions) {
        this.rows = rows;
        this.transactions = transactions;
    }

    /**
     * Runs {@code effect} for {@code event} unless the order's events arrived the wrong way round.
     * Must run inside the pipeline's transaction (from a {@link MessageHandler}).
     *
     * @return the effect's outcome; DONE for a cancel before its create (tombstone written);
     *         REJECTED {@value #CANCELLED_BEFORE_CREATE} for a create after its cancel, REJECTED
     *         {@value #FAILED_BEFORE_CREATE} for a create after its fail
     */
    public Outcome apply(OrderEvent event, ConsumeContext context, Effect effect) throws Exception {
        LockedRows<String, Progress> progress = progress(context.consumerGroup());
        String orderId = event.orderId();
        Progress row = progress.row(orderId);
        if (row == null) {
            // lock() inserts every missing row before reading them back, so this is a bug, not bad input.
            throw new IllegalStateException("order_event_progress row of " + orderId + " not read back after its insert");
        }
        if (event.eventType() == OrderEventType.CREATE) {
            if (row.state == State.CANCELLED_BEFORE_CREATE) {
                return Outcome.rejected(CANCELLED_BEFORE_CREATE);
            }
            if (row.state == State.FAILED_BEFORE_CREATE) {
                return Outcome.rejected(FAILED_BEFORE_CREATE);
            }
            Outcome outcome = effect.apply();
            save(progress, row, State.CREATED);
            return outcome;
        }
        if (event.eventType() == OrderEventType.FAIL) {
            return compensate(progress, row, effect);
        }
        if (row.state == null) {
            save(progress, row, State.CANCELLED_BEFORE_CREATE);
            return Outcome.done();
        }
        if (row.state != State.CREATED) {
            // A second cancel, or a cancel after the order failed, cannot come from order-service; nothing left to reverse.
            return Outcome.done();
        }
        Outcome outcome = effect.apply();
        save(progress, row, State.CANCELLED);
        return outcome;
    }

    /**
     * A fail event: the compensation undoes what the create did, so it runs whether or not the
     * create came first (undoing nothing is a no-op, and a text about the failure is due either
     * way); a fail before the create leaves a tombstone, so the late create applies nothing.
     * Order-service fails only an order it did not cancel, so after a cancel there is nothing left to do.
     */
    private static Outcome compensate(LockedRows<String, Progress> progress, Progress row, Effect effect)
            throws Exception {
        if (row.state == State.CANCELLED || row.state == State.CANCELLED_BEFORE_CREATE || row.state == State.FAILED
                || row.state == State.FAILED_BEFORE_CREATE) {
            return Outcome.done();
        }
        Outcome outcome = effect.apply();
        save(progress, row, row.state == null ? State.FAILED_BEFORE_CREATE : State.FAILED);
        return outcome;
    }

    private static void save(LockedRows<String, Progress> progress, Progress row, State state) {
        row.state = state;
        progress.changed(row.orderId);
        progress.writeUnlessDeferred();
    }

    /**
     * The group's progress rows held by the current transaction ({@link LockedRows}): inside the
     * pipeline the first call locks the rows of every order in the batch at once (in order-id
     * order, so that concurrent batches take them in the same order) and the new states are written
     * in one statement when the batch ends; outside it, each call locks and writes its own order's row.
     */
    private LockedRows<String, Progress> progress(String group) {
        return LockedRows.of(transactions, new ProgressKey(group),
                payload -> payload instanceof OrderEvent event ? List.of(event.orderId()) : List.of(),
                orderIds -> lock(group, orderIds), changed -> write(group, changed));
    }

    /**
     * Creates the missing rows and locks them all until commit; reads their states. Through the
     * transaction's stateless session: the rows are written back by {@link #write}, not by a flush.
     */
    private Map<String, Progress> lock(String group, List<String> orderIds) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        // Inserting or touching a row takes its exclusive lock: the order's other event waits here.
        NativeSql.insertMissing(rows, "order_event_progress", List.of("consumer_group", "order_id", "state",
                "updated_at"), orderIds.stream().<List<?>> map(orderId -> List.of(group, orderId, NEW, now)).toList(),
                "order_id");
        // Native: JPA has no index hint, and without it two batches can deadlock (see PRIMARY_KEY_HINT).
        List<OrderEventProgress> locked = rows.createNativeQuery("select * from order_event_progress"
                + NativeSql.PRIMARY_KEY_HINT + " where consumer_group = :group and order_id in (:orderIds) for update",
                OrderEventProgress.class).setParameter("group", group).setParameterList("orderIds", orderIds)
                .getResultList();
        Map<String, Progress> progress = new HashMap<>();
        for (OrderEventProgress row : locked) {
            progress.put(row.orderId, new Progress(row.orderId, NEW.equals(row.state) ? null : State.valueOf(row.state)));
        }
        return progress;
    }

    /** Writes the changed states in one statement (the rows exist and are locked by this transaction). */
    private void write(String group, List<Progress> changed) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        NativeSql.upsert(rows, "order_event_progress", List.of("consumer_group", "order_id", "state",
                "updated_at"), changed.stream().<List<?>> map(row -> List.of(group, row.orderId, row.state, now))
                        .toList(),
                List.of("consumer_group", "order_id"));
    }

    /** Resource key of a group's progress rows in the transaction. */
    private record ProgressKey(String group) {
    }

    /** A locked progress row: the order's state, null while the group has consumed nothing of it. */
    private static final class Progress {
        private final String orderId;
        private State state;

        Progress(String orderId, State state) {
            this.orderId = orderId;
            this.state = state;
        }
    }
}
