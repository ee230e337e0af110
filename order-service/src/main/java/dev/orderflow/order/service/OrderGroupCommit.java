package dev.orderflow.order.service;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.order.domain.Order;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Group commit of new orders: the orders of the creates that wait at the same time are persisted
 * in one JTA transaction (their rows sent as one JDBC batch per table), instead of one transaction
 * per order.
 *
 * <p>A create's thread queues its order. When no group is being committed, that thread becomes
 * the committer itself: it takes everything queued (up to {@code order-service.group-commit.max-orders}
 * orders, {@link #MAX_LINES} lines, its own order among them), inserts and commits it, and wakes the
 * waiting threads. Otherwise it waits; when the group ends, one of the waiting threads commits what
 * queued meanwhile as the next group. One group at a time, and nothing waits for a group to fill:
 * alone, an order is its own group, written on its create's own thread. There is no dedicated
 * committer thread: with one, every create would pay two thread hand-offs.
 *
 * <p>Each order keeps its own outcome, which decides its own half message:
 * <ul>
 * <li>committed → its create returns (and its message is committed);</li>
 * <li>the group's INSERTs failed → the group is rolled back and each order is retried alone, so
 * one refused order (a reused idempotency key, say) fails only its own create;</li>
 * <li>the commit itself failed (e.g. the connection dropped) → nobody knows whether the rows are
 * there: every order of the group gets {@link RocketMQTransactionUnknownException} and its half
 * message is settled by the check-back from the orders table.</li>
 * </ul>
 */
@ApplicationScoped
public class OrderGroupCommit {

    /** A group stops growing past this many order lines: a bound on one transaction's size. */
    static final int MAX_LINES = 10_000;

    /** How long {@link #stop()} lets the group being committed finish. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private static final Logger LOG = Logger.getLogger(OrderGroupCommit.class);

    private final GroupInsert insert;
    private final int maxOrders;
    private final DistributionSummary groupSizes;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a group ends and when the service stops. */
    private final Condition changed = lock.newCondition();
    /** Orders waiting for a coming group; guarded by {@code lock}, like {@code committing} and {@code stopping}. */
    private final ArrayDeque<PendingOrder> queued = new ArrayDeque<>();
    private boolean committing;
    private boolean stopping;

    @Inject
    public OrderGroupCommit(OrderServiceConfig config, MeterRegistry registry) {
        this(OrderGroupCommit::persist, config, registry);
    }

    /** With {@code insert} in place of {@link #persist}, which it may wrap (tests gate or fail it). */
    OrderGroupCommit(GroupInsert insert, OrderServiceConfig config, MeterRegistry registry) {
        if (config.groupCommit().maxOrders() < 1) {
            throw new IllegalArgumentException("order-service.group-commit.max-orders must be at least 1, not "
                    + config.groupCommit().maxOrders());
        }
        this.insert = insert;
        this.maxOrders = config.groupCommit().maxOrders();
        this.groupSizes = DistributionSummary.builder("orders.group_commit.orders")
                .description("Orders committed together in one database transaction (one sample per group)")
                .register(registry);
    }

    /**
     * Inserts and commits the order and its lines, with the orders of other creates waiting at the
     * same time, and returns once they are committed. The calling thread may commit a group that
     * holds other creates' orders meanwhile.
     *
     * @throws SQLException                        when its rows were refused (nothing of it was written)
     * @throws RocketMQTransactionUnknownException when the commit ended unclearly, or the wait was
     *                                             interrupted (the check-back then settles the order)
     * @throws IllegalStateException               when the service is shutting down (nothing written)
     */
    public void insertCommitted(Order order) throws SQLException {
        PendingOrder mine = new PendingOrder(order);
        lock.lock();
        try {
            if (stopping) {
                throw new IllegalStateException("Order " + order.id + " not written: the service is shutting down");
            }
            queued.add(mine);
            while (!mine.answered) {
                if (!committing && !stopping) {
                    // The queue holds at least this thread's own order: commit the next group here.
                    commitNextGroup();
                    continue;
                }
                try {
                    changed.await();
                } catch (InterruptedException e) {
                    // Still queued: never written, and it will not be. Taken: its group decides.
                    // Either way the check-back settles the half message from the orders table.
                    queued.remove(mine);
                    Thread.currentThread().interrupt();
                    throw new RocketMQTransactionUnknownException("Interrupted while order " + order.id
                            + " was waiting for its group commit; the check-back settles it", e);
                }
            }
        } finally {
            lock.unlock();
        }
        rethrow(mine.failure);
    }

    private static void rethrow(Throwable failure) throws SQLException {
        if (failure == null) {
            return;
        }
        if (failure instanceof SQLException refused) {
            throw refused;
        }
        if (failure instanceof RuntimeException unchecked) {
            throw unchecked;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException(failure);
    }

    /** The database's own refusal inside Hibernate's wrapping, as a create reports it; else {@code e}. */
    private static Throwable sqlCauseOf(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SQLException sql) {
                return sql;
            }
        }
        return e;
    }

    /** Orders queued for a coming group (not the one being committed); for tests. */
    int waiting() {
        lock.lock();
        try {
            return queued.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * With the lock held: takes the next group, commits it without the lock (so that other creates
     * queue meanwhile), then answers its orders and wakes the waiting threads.
     */
    private void commitNextGroup() {
        List<PendingOrder> group = nextGroup();
        committing = true;
        lock.unlock();
        try {
            commit(group);
        } catch (RuntimeException | Error e) {
            // commit() gives every order of the group its outcome before it can throw.
            LOG.error("Group commit failed unexpectedly", e);
        } finally {
            lock.lock();
            committing = false;
            group.forEach(pending -> pending.answered = true);
            changed.signalAll();
        }
    }

    /** With the lock held: the oldest queued orders, within the group's limits (at least one). */
    private List<PendingOrder> nextGroup() {
        List<PendingOrder> group = new ArrayList<>();
        int lines = 0;
        for (PendingOrder next = queued.peek(); next != null && group.size() < maxOrders
                && (group.isEmpty() || lines + next.order().items.size() <= MAX_LINES); next = queued.peek()) {
            group.add(queued.poll());
            lines += next.order().items.size();
        }
        return group;
    }

    /** Commits the group, or each of its orders alone when the group's INSERTs fail; gives every order its outcome. */
    private void commit(List<PendingOrder> group) {
        try {
            commitTogether(group);
            groupSizes.record(group.size());
        } catch (GroupRefused refused) {
            if (group.size() == 1) {
                group.get(0).failure = sqlCauseOf(refused.getCause());
                return;
            }
            LOG.debugf(refused.getCause(), "A group of %d orders was refused; committing each alone", group.size());
            for (PendingOrder pending : group) {
                commit(List.of(pending));
            }
        } catch (CommitUnclear unclear) {
            LOG.warnf(unclear.getCause(), "Commit of %d orders ended unclearly; their half messages are left to the "
                    + "check-back", group.size());
            RocketMQTransactionUnknownException unknown = new RocketMQTransactionUnknownException(
                    "The commit of the order's group ended unclearly", unclear.getCause());
            group.forEach(pending -> pending.failure = unknown);
            return;
        } catch (RuntimeException | Error e) {
            group.forEach(pending -> pending.failure = e);
            throw e;
        }
    }

    /**
     * One JTA transaction for the group's rows.
     *
     * @throws GroupRefused nothing committed (no connection, an INSERT refused)
     * @throws CommitUnclear the commit failed: the rows may or may not be there
     */
    private void commitTogether(List<PendingOrder> group) throws GroupRefused, CommitUnclear {
        List<Order> orders = group.stream().map(PendingOrder::order).toList();
        boolean[] inserted = { false };
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                insert.insert(orders);
                inserted[0] = true;
            });
        } catch (RuntimeException e) {
            // Thrown by the inserts (the transaction rolled back: nothing written), or by the
            // commit after them, whose outcome only the database knows.
            if (inserted[0]) {
                throw new CommitUnclear(e);
            }
            throw new GroupRefused(e);
        }
    }

    /**
     * Persists fresh copies of the orders and flushes them, so that a refused row fails here and not
     * in the commit. Copies: a refused group leaves the instances it persisted bound to its
     * rolled-back session, and its orders are then retried one by one.
     */
    static void persist(List<Order> orders) {
        orders.forEach(order -> order.copy().persist());
        Order.flush();
    }

    /**
     * Stops at shutdown: the group being committed is finished (waited for up to 10 s); creates
     * still queued fail (nothing written, their half messages rolled back) instead of waiting for a
     * database that is closing, and later ones are refused.
     */
    @PreDestroy
    void stop() {
        boolean interrupted = false;
        lock.lock();
        try {
            stopping = true;
            long left = STOP_WAIT.toNanos();
            while (committing && left > 0 && !interrupted) {
                try {
                    left = changed.awaitNanos(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            // Also when interrupted: once stopping, nobody else would ever answer the queued creates.
            for (PendingOrder pending = queued.poll(); pending != null; pending = queued.poll()) {
                pending.failure = new IllegalStateException("Order " + pending.order().id
                        + " not written: the service is shutting down");
                pending.answered = true;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A create's order and, once {@code answered}, its outcome (null: committed); guarded by {@code lock}. */
    private static final class PendingOrder {
        private final Order order;
        /** Written by the committing thread before it sets {@code answered} under the lock. */
        Throwable failure;
        boolean answered;

        PendingOrder(Order order) {
            this.order = order;
        }

        Order order() {
            return order;
        }
    }

    /** Writes a group's orders in the JTA transaction active on the calling thread. */
    @FunctionalInterface
    interface GroupInsert {
        void insert(List<Order> orders);
    }

    /** Nothing of the group was committed. */
    private static final class GroupRefused extends Exception {
        GroupRefused(Exception cause) {
            super(cause);
        }
    }

    /** The commit failed: whether the group's rows are stored is unknown. */
    private static final class CommitUnclear extends Exception {
        CommitUnclear(Exception cause) {
            super(cause);
        }
    }
}
