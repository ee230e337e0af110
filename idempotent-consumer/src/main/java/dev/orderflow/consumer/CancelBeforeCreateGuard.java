package dev.orderflow.consumer;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;

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
 * order-id order, and the new states are written as one JDBC batch at the commit. Use it
 * inside a {@link MessageHandler}:
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

    private final EntityManager entityManager;
    private final TransactionSynchronizationRegistry transactions;
    /** The progress table of each consumer group: a group's rows are locked together. */
    private final Map<String, LockedEntities.Table<OrderEventProgress>> tables = new ConcurrentHashMap<>();

    @Inject
    public CancelBeforeCreateGuard(EntityManager entityManager, TransactionSynchronizationRegistry transactions) {
        this.entityManager = entityManager;
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
        String orderId = event.orderId();
        OrderEventProgress row = LockedEntities.of(transactions, entityManager, table(context.consumerGroup()))
                .row(orderId);
        if (row == null) {
            // lock() inserts every missing row before reading them back, so this is a bug, not bad input.
            throw new IllegalStateException("order_event_progress row of " + orderId + " not read back after its insert");
        }
        State state = stateOf(row);
        if (event.eventType() == OrderEventType.CREATE) {
            if (state == State.CANCELLED_BEFORE_CREATE) {
                return Outcome.rejected(CANCELLED_BEFORE_CREATE);
            }
            if (state == State.FAILED_BEFORE_CREATE) {
                return Outcome.rejected(FAILED_BEFORE_CREATE);
            }
            Outcome outcome = effect.apply();
            save(row, State.CREATED);
            return outcome;
        }
        if (event.eventType() == OrderEventType.FAIL) {
            return compensate(row, state, effect);
        }
        if (state == null) {
            save(row, State.CANCELLED_BEFORE_CREATE);
            return Outcome.done();
        }
        if (state != State.CREATED) {
            // A second cancel, or a cancel after the order failed, cannot come from order-service; nothing left to reverse.
            return Outcome.done();
        }
        Outcome outcome = effect.apply();
        save(row, State.CANCELLED);
        return outcome;
    }

    /**
     * A fail event: the compensation undoes what the create did, so it runs whether or not the
     * create came first (undoing nothing is a no-op, and a text about the failure is due either
     * way); a fail before the create leaves a tombstone, so the late create applies nothing.
     * Order-service fails only an order it did not cancel, so after a cancel there is nothing left to do.
     */
    private static Outcome compensate(OrderEventProgress row, State state, Effect effect) throws Exception {
        if (state == State.CANCELLED || state == State.CANCELLED_BEFORE_CREATE || state == State.FAILED
                || state == State.FAILED_BEFORE_CREATE) {
            return Outcome.done();
        }
        Outcome outcome = effect.apply();
        save(row, state == null ? State.FAILED_BEFORE_CREATE : State.FAILED);
        return outcome;
    }

    /** The row's state; null while the group has consumed nothing of the order. */
    private static State stateOf(OrderEventProgress row) {
        return NEW.equals(row.state) ? null : State.valueOf(row.state);
    }

    /** Changes the locked (managed) row: Hibernate writes it at the commit, with the batch's other changes. */
    private static void save(OrderEventProgress row, State state) {
        row.state = state.name();
        row.updatedAt = now();
    }

    /**
     * The group's progress table for {@link LockedEntities}: inside the pipeline the first call locks
     * the rows of every order in the batch at once (in order-id order, so that concurrent batches
     * take them in the same order), creating the missing ones; outside it, each call locks its own
     * order's row.
     */
    private LockedEntities.Table<OrderEventProgress> table(String group) {
        return tables.computeIfAbsent(group, g -> new LockedEntities.Table<>(OrderEventProgress.class,
                "order_event_progress", "order_id", row -> row.orderId,
                payload -> payload instanceof OrderEvent event ? List.of(event.orderId()) : List.of(),
                (entityManager, orderIds) -> createMissing(entityManager, g, orderIds), "consumer_group", g));
    }

    /**
     * Creates the missing rows as NEW; inserting or touching a row takes its exclusive lock, so the
     * order's other event waits here. Native: JPA has no upsert.
     */
    private static void createMissing(EntityManager entityManager, String group, List<String> orderIds) {
        StringBuilder rows = new StringBuilder();
        int last = orderIds.size() + 3;
        for (int i = 1; i <= orderIds.size(); i++) {
            rows.append(i == 1 ? "" : ", ").append("(?").append(last - 2).append(", ?").append(i).append(", ?")
                    .append(last - 1).append(", ?").append(last).append(')');
        }
        Query create = entityManager.createNativeQuery("insert into order_event_progress (consumer_group, order_id,"
                + " state, updated_at) values " + rows + " on duplicate key update order_id = order_id");
        for (int i = 1; i <= orderIds.size(); i++) {
            create.setParameter(i, orderIds.get(i - 1));
        }
        create.setParameter(last - 2, group).setParameter(last - 1, NEW).setParameter(last, now()).executeUpdate();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
