package dev.orderflow.order.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import jakarta.inject.Inject;
import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.orderflow.order.FailingInsertTrigger;
import dev.orderflow.order.OrderDatabase;
import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.order.domain.Order;
import dev.orderflow.order.domain.OrderIds;
import dev.orderflow.order.domain.OrderLine;
import dev.orderflow.order.domain.OrderStatus;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@link OrderGroupCommit} on the real MariaDB (orderflow_order_test): orders that wait together
 * share one transaction, a refused order fails alone, an unclear commit is reported as such, and
 * shutdown answers every waiting create. A gate in front of the group insert holds the committing
 * create's thread in its transaction, so the test decides which orders wait together.
 */
@QuarkusTest
@ExtendWith(FailingInsertTrigger.class)
class OrderGroupCommitTest {

    private static final Duration ANSWER = Duration.ofSeconds(20);

    @Inject
    TransactionManager transactionManager;

    @Inject
    SessionFactory sessionFactory;

    @Inject
    OrderServiceConfig config;

    @Inject
    OrderIds orderIds;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ExecutorService creates = Executors.newCachedThreadPool();
    private GatedInsert gated;
    private OrderGroupCommit groupCommit;

    @BeforeEach
    void start() {
        gated = new GatedInsert();
        groupCommit = new OrderGroupCommit(gated, config, registry);
    }

    @AfterEach
    void stop() {
        gated.open();
        groupCommit.stop();
        creates.shutdownNow();
    }

    @Test
    void ordersThatWaitTogetherAreCommittedInOneTransaction() throws Exception {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        Future<Void> first = create(order(customerId, null));
        gated.awaitCommitterAtGate();
        List<Future<Void>> together = IntStream.range(0, 10).mapToObj(i -> create(order(customerId, null))).toList();
        await().atMost(ANSWER).until(() -> groupCommit.waiting() == 10);

        gated.open();
        first.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        for (Future<Void> create : together) {
            create.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        }

        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(11);
        assertThat(linesOfCustomer(customerId)).isEqualTo(22);
        DistributionSummary groups = registry.get("orders.group_commit.orders").summary();
        assertThat(groups.count()).as("commits").isEqualTo(2);
        assertThat(groups.totalAmount()).as("orders committed").isEqualTo(11);
        assertThat(groups.max()).isEqualTo(10);
        assertThat(gated.transactionsBegun()).isEqualTo(2);
    }

    /**
     * A group's orders and their lines go to the database as one JDBC batch per table: two groups of
     * 33 rows in all, four prepared statements (a statement per row would prepare 33).
     */
    @Test
    void aGroupIsWrittenAsOneJdbcBatchPerTable() throws Exception {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        Statistics statistics = sessionFactory.getStatistics();
        Future<Void> first = create(order(customerId, null));
        gated.awaitCommitterAtGate();
        List<Future<Void>> together = IntStream.range(0, 10).mapToObj(i -> create(order(customerId, null))).toList();
        await().atMost(ANSWER).until(() -> groupCommit.waiting() == 10);
        statistics.clear();

        gated.open();
        first.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        for (Future<Void> create : together) {
            create.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        }

        assertThat(linesOfCustomer(customerId)).isEqualTo(22);
        assertThat(statistics.getEntityInsertCount()).isEqualTo(11);
        assertThat(statistics.getCollectionRecreateCount()).as("line lists written").isEqualTo(11);
        assertThat(statistics.getPrepareStatementCount()).as("statements prepared for 33 rows").isLessThanOrEqualTo(4);
    }

    @Test
    void aRefusedOrderFailsAloneAndTheRestOfItsGroupIsCommitted() throws Exception {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        String refusedCustomerId = FailingInsertTrigger.CUSTOMER_PREFIX + UUID.randomUUID();
        Future<Void> first = create(order(customerId, null));
        gated.awaitCommitterAtGate();
        List<Future<Void>> good = IntStream.range(0, 5).mapToObj(i -> create(order(customerId, null))).toList();
        Future<Void> refused = create(order(refusedCustomerId, null));
        await().atMost(ANSWER).until(() -> groupCommit.waiting() == 6);

        gated.open();
        first.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        for (Future<Void> create : good) {
            create.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        }
        assertThatThrownBy(() -> refused.get(ANSWER.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(SQLException.class)
                .hasMessageContaining(FailingInsertTrigger.MESSAGE);

        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(6);
        assertThat(OrderDatabase.ordersOfCustomer(refusedCustomerId)).isZero();
        DistributionSummary groups = registry.get("orders.group_commit.orders").summary();
        // The first order's group, then the refused group's five good orders one by one.
        assertThat(groups.count()).isEqualTo(6);
        assertThat(groups.totalAmount()).isEqualTo(6);
    }

    @Test
    void twoOrdersWithOneIdempotencyKeyInAGroupCommitOnlyOne() throws Exception {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        String idempotencyKey = "idem-" + UUID.randomUUID();
        Future<Void> first = create(order(customerId, null));
        gated.awaitCommitterAtGate();
        List<Future<Void>> sameKey = List.of(create(order(customerId, idempotencyKey)),
                create(order(customerId, idempotencyKey)));
        await().atMost(ANSWER).until(() -> groupCommit.waiting() == 2);

        gated.open();
        first.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        int committed = 0;
        for (Future<Void> create : sameKey) {
            try {
                create.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
                committed++;
            } catch (ExecutionException e) {
                // What OrderService turns into a replay of the winner.
                assertThat(e.getCause()).isInstanceOf(SQLException.class)
                        .hasMessageContaining(Order.IDEMPOTENCY_KEY_CONSTRAINT);
                assertThat(((SQLException) e.getCause()).getErrorCode()).isEqualTo(1062);
            }
        }

        assertThat(committed).isEqualTo(1);
        assertThat(OrderDatabase.count("select count(*) from orders where idempotency_key = ?", idempotencyKey))
                .isEqualTo(1);
        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(2);
    }

    /** The commit reached the server but its answer was lost: the create must say "unknown", not "failed". */
    @Test
    void aCommitThatEndsUnclearlyIsReportedUnknownAndItsRowsStay() {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        gated.failCommitsAfterCommitting();
        gated.open();

        assertThatThrownBy(() -> groupCommit.insertCommitted(order(customerId, null)))
                .isInstanceOf(RocketMQTransactionUnknownException.class)
                // The transaction manager's verdict on the injected failure, which it keeps as suppressed.
                .rootCause().isInstanceOf(HeuristicMixedException.class)
                .satisfies(heuristic -> assertThat(heuristic.getSuppressed()).anySatisfy(
                        suppressed -> assertThat(suppressed).hasMessage("connection reset after the commit (test)")));

        // The check-back finds the row and commits the half message.
        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(1);
    }

    @Test
    void shutdownFinishesTheGroupBeingCommittedAndFailsTheWaitingOnes() throws Exception {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        Future<Void> first = create(order(customerId, null));
        gated.awaitCommitterAtGate();
        List<Future<Void>> waiting = List.of(create(order(customerId, null)), create(order(customerId, null)));
        await().atMost(ANSWER).until(() -> groupCommit.waiting() == 2);

        Thread stopper = new Thread(groupCommit::stop, "test-stopper");
        stopper.start();
        // stop() marks the committer stopping, then waits for it.
        await().atMost(ANSWER).until(() -> stopper.getState() == Thread.State.TIMED_WAITING);
        gated.open();
        stopper.join(ANSWER.toMillis());

        first.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        for (Future<Void> create : waiting) {
            assertThatThrownBy(() -> create.get(ANSWER.toSeconds(), TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class).hasMessageContaining("shutting down");
        }
        assertThatThrownBy(() -> groupCommit.insertCommitted(order(customerId, null)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("shutting down");
        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(1);
    }

    /** A shutdown interrupted while it waits for the group being committed still refuses the queued creates. */
    @Test
    void anInterruptedShutdownStillAnswersTheWaitingCreates() throws Exception {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        Future<Void> first = create(order(customerId, null));
        gated.awaitCommitterAtGate();
        Future<Void> waiting = create(order(customerId, null));
        await().atMost(ANSWER).until(() -> groupCommit.waiting() == 1);

        Thread stopper = new Thread(groupCommit::stop, "test-stopper");
        stopper.start();
        await().atMost(ANSWER).until(() -> stopper.getState() == Thread.State.TIMED_WAITING);
        stopper.interrupt();
        stopper.join(ANSWER.toMillis());

        assertThatThrownBy(() -> waiting.get(ANSWER.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(IllegalStateException.class).hasMessageContaining("shutting down");
        gated.open();
        first.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(1);
    }

    /** Alone, an order is its own group, written by its create's own thread: no hand-off to another thread. */
    @Test
    void aLoneOrderIsCommittedOnTheThreadOfItsCreate() throws Exception {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        gated.open();

        groupCommit.insertCommitted(order(customerId, null));

        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(1);
        assertThat(gated.transactionThreads()).containsExactly(Thread.currentThread().getName());
    }

    /** A create interrupted while its order waits for the next group gives up, and the order is never written. */
    @Test
    void aCreateInterruptedWhileQueuedIsNeverWritten() throws Exception {
        String customerId = "C-GROUP-" + UUID.randomUUID();
        String interruptedCustomerId = "C-GROUP-" + UUID.randomUUID();
        Future<Void> first = create(order(customerId, null));
        gated.awaitCommitterAtGate();
        AtomicReference<Throwable> interruptedOutcome = new AtomicReference<>();
        Thread interrupted = new Thread(() -> {
            try {
                groupCommit.insertCommitted(order(interruptedCustomerId, null));
            } catch (Throwable e) {
                interruptedOutcome.set(e);
            }
        }, "test-interrupted-create");
        interrupted.start();
        await().atMost(ANSWER).until(() -> groupCommit.waiting() == 1);

        interrupted.interrupt();
        interrupted.join(ANSWER.toMillis());
        assertThat(interruptedOutcome.get()).isInstanceOf(RocketMQTransactionUnknownException.class)
                .hasMessageContaining("check-back");
        assertThat(groupCommit.waiting()).isZero();
        gated.open();
        first.get(ANSWER.toSeconds(), TimeUnit.SECONDS);

        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(1);
        assertThat(OrderDatabase.ordersOfCustomer(interruptedCustomerId)).isZero();
        assertThat(registry.get("orders.group_commit.orders").summary().count()).as("commits").isEqualTo(1);
    }

    private Future<Void> create(Order order) {
        return creates.submit(() -> {
            groupCommit.insertCommitted(order);
            return null;
        });
    }

    private Order order(String customerId, String idempotencyKey) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Order order = new Order();
        order.id = orderIds.next();
        order.customerId = customerId;
        order.phone = "+819012345678";
        order.amount = new BigDecimal("3.00");
        order.status = OrderStatus.CREATED;
        order.idempotencyKey = idempotencyKey;
        order.requestHash = idempotencyKey == null ? null : "hash";
        order.createdAt = now;
        order.updatedAt = now;
        order.addItem(new OrderLine("SKU-1", 1, new BigDecimal("1.00")));
        order.addItem(new OrderLine("SKU-2", 2, new BigDecimal("1.00")));
        return order;
    }

    private static long linesOfCustomer(String customerId) {
        return OrderDatabase.count("select count(*) from order_items i join orders o on o.id = i.order_id"
                + " where o.customer_id = ?", customerId);
    }

    /**
     * The service's group insert behind a gate: a group is written only once the gate is open;
     * optionally each transaction gets a second resource that fails its own commit after the
     * database committed, so the transaction's outcome is reported as unclear.
     */
    private final class GatedInsert implements OrderGroupCommit.GroupInsert {

        private final CountDownLatch gate = new CountDownLatch(1);
        private final CountDownLatch committerAtGate = new CountDownLatch(1);
        private final List<String> transactionThreads = new CopyOnWriteArrayList<>();
        private volatile boolean failCommitsAfterCommitting;

        void open() {
            gate.countDown();
        }

        void awaitCommitterAtGate() throws InterruptedException {
            assertThat(committerAtGate.await(ANSWER.toSeconds(), TimeUnit.SECONDS)).as("committer at the gate").isTrue();
        }

        void failCommitsAfterCommitting() {
            failCommitsAfterCommitting = true;
        }

        int transactionsBegun() {
            return transactionThreads.size();
        }

        /** The names of the threads that wrote a group, in order. */
        List<String> transactionThreads() {
            return transactionThreads;
        }

        @Override
        public void insert(List<Order> orders) {
            committerAtGate.countDown();
            try {
                if (!gate.await(ANSWER.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("gate not opened (test)");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted at the gate (test)", e);
            }
            transactionThreads.add(Thread.currentThread().getName());
            OrderGroupCommit.persist(orders);
            if (failCommitsAfterCommitting) {
                try {
                    transactionManager.getTransaction().enlistResource(new FailsItsCommit());
                } catch (SystemException | RollbackException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /**
     * A second resource of the transaction whose commit fails after the database's (the database is
     * the one-phase last resource, committed between this one's prepare and commit): as a connection
     * reset after the server committed, nobody can say that the transaction committed.
     */
    private static final class FailsItsCommit implements XAResource {

        @Override
        public int prepare(Xid xid) {
            return XA_OK;
        }

        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            XAException reset = new XAException("connection reset after the commit (test)");
            reset.errorCode = XAException.XA_HEURHAZ;
            throw reset;
        }

        @Override
        public void rollback(Xid xid) {
        }

        @Override
        public void start(Xid xid, int flags) {
        }

        @Override
        public void end(Xid xid, int flags) {
        }

        @Override
        public void forget(Xid xid) {
        }

        @Override
        public Xid[] recover(int flag) {
            return new Xid[0];
        }

        @Override
        public boolean isSameRM(XAResource other) {
            return other == this;
        }

        @Override
        public int getTransactionTimeout() {
            return 0;
        }

        @Override
        public boolean setTransactionTimeout(int seconds) {
            return false;
        }
    }
}
