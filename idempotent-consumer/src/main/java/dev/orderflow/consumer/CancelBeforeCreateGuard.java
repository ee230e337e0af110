package dev.orderflow.consumer;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;

/**
 * Makes create and cancel of one order take effect in that order in a consumer group, although
 * transactional messages land on any queue and a cancel may be consumed before its create.
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
 * Use it inside a {@link MessageHandler}:
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
 * <p>Tombstones must outlive the longest delay between a cancel and its create (the retry window);
 * they are purged with consume_record ({@link ConsumeRecordPurger}).
 */
@ApplicationScoped
public class CancelBeforeCreateGuard {

    /** Reason of the REJECTED outcome of a create consumed after its cancel. */
    public static final String CANCELLED_BEFORE_CREATE = "cancelled before create";

    /** What the group has consumed for an order. */
    enum State {
        /** The create was consumed (applied or rejected); a cancel reverses what it did. */
        CREATED,
        /** A cancel came first: the tombstone. A create after it applies nothing. */
        CANCELLED_BEFORE_CREATE,
        /** Create, then cancel were consumed. */
        CANCELLED
    }

    /** The business change of a create or cancel, run only when the guard lets the event through. */
    @FunctionalInterface
    public interface Effect {
        Outcome apply() throws Exception;
    }

    private final EntityManager entityManager;

    @Inject
    public CancelBeforeCreateGuard(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    /**
     * Runs {@code effect} for {@code event} unless the order's events arrived the wrong way round.
     * Must run inside the pipeline's transaction (from a {@link MessageHandler}).
     *
     * @return the effect's outcome; DONE for a cancel before its create (tombstone written);
     *         REJECTED {@value #CANCELLED_BEFORE_CREATE} for a create after its cancel
     */
    public Outcome apply(OrderEvent event, ConsumeContext context, Effect effect) throws Exception {
        State state = lock(context.consumerGroup(), event.orderId());
        if (event.eventType() == OrderEventType.CREATE) {
            if (state == State.CANCELLED_BEFORE_CREATE) {
                return Outcome.rejected(CANCELLED_BEFORE_CREATE);
            }
            Outcome outcome = effect.apply();
            save(context.consumerGroup(), event.orderId(), State.CREATED);
            return outcome;
        }
        if (state == null) {
            save(context.consumerGroup(), event.orderId(), State.CANCELLED_BEFORE_CREATE);
            return Outcome.done();
        }
        if (state != State.CREATED) {
            // A second, different cancel key for the same order cannot come from order-service; nothing left to reverse.
            return Outcome.done();
        }
        Outcome outcome = effect.apply();
        save(context.consumerGroup(), event.orderId(), State.CANCELLED);
        return outcome;
    }

    /** Creates the row if missing and locks it until commit; returns its state (null when new). */
    private State lock(String group, String orderId) {
        // Inserting or touching the row takes its exclusive lock: the order's other event waits here.
        entityManager.createNativeQuery("insert into order_event_progress (consumer_group, order_id, state, updated_at)"
                + " values (?1, ?2, 'NEW', ?3) on duplicate key update order_id = order_id")
                .setParameter(1, group)
                .setParameter(2, orderId)
                .setParameter(3, now())
                .executeUpdate();
        @SuppressWarnings("unchecked")
        List<String> states = entityManager.createNativeQuery(
                "select state from order_event_progress where consumer_group = ?1 and order_id = ?2 for update")
                .setParameter(1, group)
                .setParameter(2, orderId)
                .getResultList();
        String state = states.get(0);
        return "NEW".equals(state) ? null : State.valueOf(state);
    }

    private void save(String group, String orderId, State state) {
        entityManager.createNativeQuery("update order_event_progress set state = ?1, updated_at = ?2"
                + " where consumer_group = ?3 and order_id = ?4")
                .setParameter(1, state.name())
                .setParameter(2, now())
                .setParameter(3, group)
                .setParameter(4, orderId)
                .executeUpdate();
    }

    /** UTC wall-clock time, as Hibernate stores instants here (quarkus.hibernate-orm.jdbc.timezone=UTC). */
    private static Timestamp now() {
        return Timestamp.valueOf(LocalDateTime.ofInstant(Instant.now().truncatedTo(ChronoUnit.MILLIS), ZoneOffset.UTC));
    }
}
