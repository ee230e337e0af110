package dev.orderflow.order.service;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.order.domain.Order;
import dev.orderflow.order.domain.OrderRows;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Group commit of new orders: the rows of the creates that wait at the same time go into the
 * database in one transaction, with one INSERT per table, instead of one transaction per order.
 *
 * <p>A create's thread queues its order and waits. One committer thread takes everything queued
 * (up to {@code order-service.group-commit.max-orders} orders, {@link #MAX_LINES} lines), inserts
 * and commits it, and wakes the waiting threads; what queued meanwhile is the next group. Nothing
 * waits for a group to fill: alone, an order is its own group.
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

    /**
     * A group stops growing past this many order lines: the lines go into one INSERT of five
     * parameters per line, and MariaDB takes at most 65,535 parameters per statement.
     */
    static final int MAX_LINES = 10_000;

    private static final Logger LOG = Logger.getLogger(OrderGroupCommit.class);

    private final DataSource dataSource;
    private final int maxOrders;
    private final Duration delayAfterInsert;
    private final DistributionSummary groupSizes;
    private final BlockingQueue<PendingOrder> queued = new LinkedBlockingQueue<>();
    private final Thread committer;
    private volatile boolean stopping;

    @Inject
    public OrderGroupCommit(DataSource dataSource, OrderServiceConfig config, MeterRegistry registry) {
        if (config.groupCommit().maxOrders() < 1) {
            throw new IllegalArgumentException("order-service.group-commit.max-orders must be at least 1, not "
                    + config.groupCommit().maxOrders());
        }
        this.dataSource = dataSource;
        this.maxOrders = config.groupCommit().maxOrders();
        this.delayAfterInsert = config.faultInjection().delayAfterInsert();
        this.groupSizes = DistributionSummary.builder("orders.group_commit.orders")
                .description("Orders committed together in one database transaction (one sample per group)")
                .register(registry);
        this.committer = new Thread(this::commitQueued, "order-group-commit");
        committer.setDaemon(true);
        committer.start();
    }

    /**
     * Inserts and commits the order and its lines, with the orders of other creates waiting at the
     * same time, and returns once they are committed.
     *
     * @throws SQLException                        when its rows were refused (nothing of it was written)
     * @throws RocketMQTransactionUnknownException when the commit ended unclearly, or the wait was
     *                                             interrupted after the order was queued
     * @throws IllegalStateException               when the service is shutting down (nothing written)
     */
    public void insertCommitted(Order order) throws SQLException {
        if (stopping) {
            throw new IllegalStateException("Order " + order.id + " not written: the service is shutting down");
        }
        PendingOrder pending = new PendingOrder(order, new CompletableFuture<>());
        queued.add(pending);
        if (stopping) {
            // stop() may have emptied the queue before this order arrived: nobody would answer it.
            failQueued();
        }
        try {
            pending.committed().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RocketMQTransactionUnknownException("Interrupted while order " + order.id
                    + " was waiting for its group commit; the check-back settles it", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException refused) {
                throw refused;
            }
            if (cause instanceof RuntimeException unchecked) {
                throw unchecked;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Orders queued for a coming group (not the one being committed); for tests. */
    int waiting() {
        return queued.size();
    }

    /** The committer thread: one group after the other until shutdown. */
    private void commitQueued() {
        while (!stopping) {
            try {
                PendingOrder first = queued.poll(100, TimeUnit.MILLISECONDS);
                if (first != null) {
                    commit(nextGroup(first));
                }
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException | Error e) {
                // commit() completes every order of its group before it can throw; keep committing.
                LOG.error("Group commit failed unexpectedly", e);
            }
        }
        failQueued();
    }

    /** {@code first} and what is queued behind it, within the group's limits. */
    private List<PendingOrder> nextGroup(PendingOrder first) {
        List<PendingOrder> group = new ArrayList<>();
        group.add(first);
        int lines = first.order().items.size();
        // Only this thread takes from the queue, so what peek() shows is what poll() returns.
        for (PendingOrder next = queued.peek(); next != null && group.size() < maxOrders
                && lines + next.order().items.size() <= MAX_LINES; next = queued.peek()) {
            group.add(queued.poll());
            lines += next.order().items.size();
        }
        return group;
    }

    /** Commits the group, or each of its orders alone when the group's INSERTs fail; completes every order. */
    private void commit(List<PendingOrder> group) {
        try {
            commitTogether(group);
            groupSizes.record(group.size());
        } catch (GroupRefused refused) {
            if (group.size() == 1) {
                group.get(0).committed().completeExceptionally(refused.getCause());
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
            group.forEach(pending -> pending.committed().completeExceptionally(unknown));
            return;
        } catch (RuntimeException | Error e) {
            group.forEach(pending -> pending.committed().completeExceptionally(e));
            throw e;
        }
        group.forEach(pending -> pending.committed().complete(null));
    }

    /**
     * One transaction for the group's rows.
     *
     * @throws GroupRefused nothing committed (no connection, an INSERT refused)
     * @throws CommitUnclear the commit failed: the rows may or may not be there
     */
    private void commitTogether(List<PendingOrder> group) throws GroupRefused, CommitUnclear {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw new GroupRefused(e); // database unreachable or pool exhausted: nothing written
        }
        try {
            try {
                connection.setAutoCommit(false);
                OrderRows.insert(connection, group.stream().map(PendingOrder::order).toList());
                pauseForFaultInjection();
            } catch (SQLException | RuntimeException e) {
                rollback(connection, e);
                throw new GroupRefused(e);
            }
            try {
                connection.commit();
            } catch (SQLException e) {
                rollback(connection, e); // whatever the server kept, nothing more goes in on release
                throw new CommitUnclear(e);
            }
        } finally {
            // After commit or rollback: a failure here must not change the group's outcome.
            release(connection);
        }
    }

    private static void rollback(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            // Uncommitted either way: the pool discards a broken connection, the server rolls back.
            cause.addSuppressed(e);
        }
    }

    /** Back to autocommit (the pool's default) and into the pool; a failure is logged, the pool drops a broken connection. */
    private static void release(Connection connection) {
        try (connection) {
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            LOG.warn("Releasing a group commit's connection failed", e);
        }
    }

    /** The test-only pause of {@code order-service.fault-injection.delay-after-insert}; nothing when zero. */
    private void pauseForFaultInjection() {
        if (delayAfterInsert.isZero()) {
            return;
        }
        try {
            Thread.sleep(delayAfterInsert.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during the fault-injection pause", e);
        }
    }

    /**
     * Stops at shutdown: the group being committed is finished; creates still queued fail (nothing
     * written, their half messages rolled back) instead of waiting for a database that is closing.
     */
    @PreDestroy
    void stop() {
        stopping = true;
        try {
            committer.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failQueued();
    }

    private void failQueued() {
        for (PendingOrder pending = queued.poll(); pending != null; pending = queued.poll()) {
            pending.committed().completeExceptionally(new IllegalStateException("Order " + pending.order().id
                    + " not written: the service is shutting down"));
        }
    }

    private record PendingOrder(Order order, CompletableFuture<Void> committed) {
    }

    /** Nothing of the group was committed. */
    private static final class GroupRefused extends Exception {
        GroupRefused(Exception cause) {
            super(cause);
        }
    }

    /** The commit failed: whether the group's rows are stored is unknown. */
    private static final class CommitUnclear extends Exception {
        CommitUnclear(SQLException cause) {
            super(cause);
        }
    }
}
