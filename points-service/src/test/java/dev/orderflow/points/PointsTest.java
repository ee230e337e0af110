package dev.orderflow.points;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.CancelBeforeCreateGuard;
import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.consumer.testing.Deliveries;
import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportParser;
import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.points.domain.PointsAccount;
import dev.orderflow.points.domain.PointsLedgerEntry;
import dev.orderflow.points.messaging.OrderEventsConsumer;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

/**
 * points-service end to end inside one JVM: order events sent to order_topic of the in-process
 * broker with a plain producer (or handed to the consumer bean directly for races and lost acks),
 * balances read over HTTP, committed rows read from the real MariaDB, reports read from
 * order_result_topic.
 */
@QuarkusTest
class PointsTest {

    private static final Duration PROCESSED = Duration.ofSeconds(60);

    @Inject
    OrderEventsConsumer consumer;

    @Inject
    SessionFactory sessionFactory;

    @Inject
    MeterRegistry metrics;

    private static OrderEvent create(String customerId, String amountPerUnit, int quantity) {
        return OrderEvent.of(OrderEventType.CREATE, "O-" + UUID.randomUUID(), customerId, "+819012345678",
                List.of(new OrderItem("SKU-1", quantity, new BigDecimal(amountPerUnit))),
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    private static OrderEvent cancel(OrderEvent create) {
        return OrderEvent.of(OrderEventType.CANCEL, create.orderId(), create.customerId(), create.phone(),
                create.items(), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    private static String newCustomer() {
        return "C-" + UUID.randomUUID();
    }

    private static long balance(String customerId) {
        return given().get("/points/{customerId}", customerId).then().statusCode(200)
                .extract().jsonPath().getLong("balance");
    }

    private static String outcome(OrderEvent event) {
        List<Map<String, Object>> rows = CommittedState.rows("select outcome, outcome_reason from consume_record"
                + " where consumer_group = ? and message_key = ?", OrderMessaging.POINTS_GROUP, event.messageKey());
        return rows.isEmpty() ? null : rows.get(0).get("outcome") + (rows.get(0).get("outcome_reason") == null ? ""
                : ": " + rows.get(0).get("outcome_reason"));
    }

    private static void awaitConsumed(OrderEvent event) {
        await().atMost(PROCESSED).until(() -> outcome(event) != null);
    }

    private static long ledger(OrderEvent event, String reason) {
        return CommittedState.number("select count(*) from points_ledger where order_id = ? and reason = ?",
                event.orderId(), reason);
    }

    private static ConsumerReport awaitSingleReport(OrderEvent event) {
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        String key = ConsumerReports.messageKey(event.orderId(), event.eventType(), ConsumerReports.POINTS);
        await().atMost(PROCESSED).until(() -> !probe.withKey(key).isEmpty());
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> probe.withKey(key).size() == 1);
        return ConsumerReportParser.parse(probe.withKey(key).get(0).body());
    }

    private double acked() {
        return metrics.get("rocketmq.messages.acked").tag("channel", "order-events").counter().count();
    }

    private static OrderEvent fail(OrderEvent create) {
        return OrderEvent.failed(create.orderId(), create.customerId(), create.phone(), create.items(),
                new OrderFailure("inventory", "business", "insufficient stock for SKU-1: 2 requested, 1 available"),
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * An order that failed takes back what its create credited, once, with a ledger entry that says
     * why (net 0); its fail delivered twice reverses once; a fail consumed before its create leaves
     * nothing to take back and the late create credits nothing.
     */
    @Test
    void aFailedOrdersPointsAreTakenBackOnceWithTheReasonEvenWhenTheFailComesFirst() {
        String customer = newCustomer();
        OrderEvent create = create(customer, "12.50", 2);
        OrderEvent failFirst = create(customer, "3.00", 1);

        OrderTopicSender.send(create);
        awaitConsumed(create);
        assertThat(balance(customer)).isEqualTo(25);
        OrderTopicSender.send(fail(create));
        OrderTopicSender.send(fail(create));
        OrderTopicSender.send(fail(failFirst));
        awaitConsumed(fail(failFirst));
        OrderTopicSender.send(failFirst);

        assertThat(awaitSingleReport(fail(create)).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        assertThat(awaitSingleReport(failFirst).outcome()).isEqualTo(ConsumerReport.Outcome.REJECTED);
        assertThat(outcome(failFirst)).isEqualTo("REJECTED: " + CancelBeforeCreateGuard.FAILED_BEFORE_CREATE);
        assertThat(balance(customer)).as("net 0 for both orders").isZero();
        assertThat(ledger(create, "ORDER_CREDIT")).isEqualTo(1);
        assertThat(ledger(create, "ORDER_FAILURE_REVERSAL")).isEqualTo(1);
        assertThat(ledger(create, "ORDER_REVERSAL")).isZero();
        assertThat(CommittedState.rows("select points, note from points_ledger where order_id = ? and reason = ?",
                create.orderId(), "ORDER_FAILURE_REVERSAL").get(0))
                .containsEntry("points", -25L)
                .containsEntry("note", "inventory business: insufficient stock for SKU-1: 2 requested, 1 available");
        assertThat(CommittedState.number("select count(*) from points_ledger where order_id = ?", failFirst.orderId()))
                .as("nothing credited, nothing reversed").isZero();
    }

    @Test
    void unknownCustomerHasBalanceZeroAndAnInvalidIdIsAProblem() {
        String customer = newCustomer();
        given().get("/points/{customerId}", customer).then()
                .statusCode(200)
                .body(equalTo("{\"customerId\":\"" + customer + "\",\"balance\":0}"));
        given().get("/points/{customerId}", "bad id").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("customerId"));
    }

    @Test
    void createCreditsFloorOfAmountTimesRateAndReportsDoneOnce() {
        String customer = newCustomer();
        OrderEvent create = create(customer, "12.99", 2); // 25.98 → 25 points at rate 1

        OrderTopicSender.send(create);
        awaitConsumed(create);

        assertThat(balance(customer)).isEqualTo(25);
        given().get("/points/{customerId}", customer).then()
                .body(equalTo("{\"customerId\":\"" + customer + "\",\"balance\":25}"));
        ConsumerReport report = awaitSingleReport(create);
        assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        assertThat(report.consumer()).isEqualTo("points");
    }

    @Test
    void sameMessageDeliveredTenTimesCreditsOnce() {
        String customer = newCustomer();
        OrderEvent create = create(customer, "10.00", 1);
        double ackedBefore = acked();

        for (int i = 0; i < 10; i++) {
            OrderTopicSender.send(create);
        }
        await().atMost(PROCESSED).until(() -> acked() - ackedBefore >= 10);

        assertThat(balance(customer)).isEqualTo(10);
        assertThat(ledger(create, "ORDER_CREDIT")).isEqualTo(1);
        awaitSingleReport(create);
    }

    @Test
    void cancelReversesExactlyTheCreditOnce() {
        String customer = newCustomer();
        OrderEvent first = create(customer, "7.50", 1);
        OrderEvent second = create(customer, "3.20", 1);
        OrderTopicSender.send(first);
        OrderTopicSender.send(second);
        awaitConsumed(first);
        awaitConsumed(second);
        assertThat(balance(customer)).isEqualTo(7 + 3);

        OrderEvent cancel = cancel(first);
        OrderTopicSender.send(cancel);
        OrderTopicSender.send(cancel);
        awaitConsumed(cancel);

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> balance(customer) == 3);
        assertThat(ledger(first, "ORDER_REVERSAL")).isEqualTo(1);
        assertThat(awaitSingleReport(cancel).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
    }

    @Test
    void cancelBeforeCreateCreditsNothing() {
        String customer = newCustomer();
        OrderEvent create = create(customer, "40.00", 1);
        OrderEvent cancel = cancel(create);

        OrderTopicSender.send(cancel);
        awaitConsumed(cancel);
        OrderTopicSender.send(create);
        awaitConsumed(create);

        assertThat(outcome(cancel)).isEqualTo("DONE");
        assertThat(outcome(create)).isEqualTo("REJECTED: " + CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE);
        assertThat(balance(customer)).isZero();
        assertThat(ledger(create, "ORDER_CREDIT")).isZero();
        assertThat(awaitSingleReport(create).reason()).isEqualTo(CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE);
    }

    @Test
    void sameMessageConsumedConcurrentlyByTwoInstancesCreditsOnceAndCreateCancelRacesNetToZero() throws Exception {
        String customer = newCustomer();
        for (int i = 0; i < 5; i++) {
            OrderEvent create = create(customer, "5.00", 1);
            assertThat(race(create, create)).allSatisfy(d -> assertThat(d.acks()).isEqualTo(1));
            assertThat(ledger(create, "ORDER_CREDIT")).isEqualTo(1);
        }
        assertThat(balance(customer)).as("5 orders of 5 points, each credited once").isEqualTo(25);

        String other = newCustomer();
        for (int i = 0; i < 5; i++) {
            OrderEvent create = create(other, "9.00", 1);
            for (Deliveries.Delivered delivery : race(create, cancel(create))) {
                if (delivery.nacks() > 0) {
                    // A transient failure (e.g. a deadlock victim) is redelivered by the broker; do the same.
                    OrderEvent event = OrderEventParser.parse(delivery.message().getPayload());
                    consumer.onOrderEvent(Deliveries.of(event, OrderMessaging.POINTS_GROUP, 1).message())
                            .toCompletableFuture().get(60, TimeUnit.SECONDS);
                }
            }
        }
        assertThat(balance(other)).as("every order cancelled, whatever the order of arrival").isZero();
    }

    @Test
    void processKilledBetweenCommitAndAckIsRedeliveredAndDeduped() throws Exception {
        String customer = newCustomer();
        OrderEvent create = create(customer, "6.00", 2);

        // The commit happens, the acknowledgement is lost with the process.
        consumer.onOrderEvent(Deliveries.of(create, OrderMessaging.POINTS_GROUP, 0).message())
                .toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertThat(balance(customer)).isEqualTo(12);
        double ackedBefore = acked();

        OrderTopicSender.send(create);
        await().atMost(PROCESSED).until(() -> acked() - ackedBefore >= 1);

        assertThat(balance(customer)).isEqualTo(12);
        assertThat(ledger(create, "ORDER_CREDIT")).isEqualTo(1);
        assertThat(awaitSingleReport(create).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
    }

    private List<Deliveries.Delivered> race(OrderEvent first, OrderEvent second) throws Exception {
        Deliveries.Delivered a = Deliveries.of(first, OrderMessaging.POINTS_GROUP, 0);
        Deliveries.Delivered b = Deliveries.of(second, OrderMessaging.POINTS_GROUP, 0);
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> runA = pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return consumer.onOrderEvent(a.message()).toCompletableFuture().get(60, TimeUnit.SECONDS);
            });
            Future<?> runB = pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return consumer.onOrderEvent(b.message()).toCompletableFuture().get(60, TimeUnit.SECONDS);
            });
            runA.get(90, TimeUnit.SECONDS);
            runB.get(90, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        return List.of(a, b);
    }

    /**
     * One batch holding two orders of one customer and the cancel of the first: the account is
     * locked once for the batch, the ledger entries are written at its end, and the cancel still
     * finds (and reverses) the credit its create made earlier in the same batch.
     */
    @Test
    void aCreateAndItsCancelInOneBatchLeaveOnlyTheOtherOrdersPoints() throws Exception {
        String customer = newCustomer();
        OrderEvent cancelled = create(customer, "10.00", 3);
        OrderEvent kept = create(customer, "20.00", 1);
        Deliveries.Delivered delivered = Deliveries.batchOf(List.of(cancelled, kept, cancel(cancelled)),
                OrderMessaging.POINTS_GROUP);

        consumer.onOrderEvent(delivered.batch()).toCompletableFuture().get(60, TimeUnit.SECONDS);

        assertThat(delivered.acks()).isEqualTo(1);
        long keptPoints = CommittedState.number("select points from points_ledger where order_id = ? and reason = ?",
                kept.orderId(), "ORDER_CREDIT");
        assertThat(keptPoints).isPositive();
        assertThat(balance(customer)).isEqualTo(keptPoints);
        assertThat(ledger(cancelled, "ORDER_CREDIT")).isEqualTo(1);
        assertThat(ledger(cancelled, "ORDER_REVERSAL")).isEqualTo(1);
        assertThat(outcome(cancel(cancelled))).isEqualTo("DONE");
    }
    /**
     * A batch of creates for as many new customers is written by Hibernate as JDBC batches: the accounts'
     * upsert and locking read, one prepared INSERT for every ledger entry and one prepared UPDATE for every
     * account; the pipeline's own rows of the batch (dedupe claims, cancel-before-create progress, reports
     * and their ids) take seven more statements. A statement per row would prepare one each, over a hundred.
     */
    @Test
    void aBatchOfCreditsIsWrittenAsJdbcBatches() throws Exception {
        List<OrderEvent> creates = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            creates.add(create(newCustomer(), "10.00", 1));
        }
        Deliveries.Delivered delivered = Deliveries.batchOf(creates, OrderMessaging.POINTS_GROUP);
        Statistics statistics = sessionFactory.getStatistics();
        statistics.clear();

        consumer.onOrderEvent(delivered.batch()).toCompletableFuture().get(60, TimeUnit.SECONDS);
        long inserted = statistics.getEntityStatistics(PointsLedgerEntry.class.getName()).getInsertCount();
        long updated = statistics.getEntityStatistics(PointsAccount.class.getName()).getUpdateCount();
        long prepared = statistics.getPrepareStatementCount();

        assertThat(delivered.acks()).isEqualTo(1);
        creates.forEach(create -> assertThat(balance(create.customerId())).isEqualTo(10));
        assertThat(inserted).isEqualTo(20);
        assertThat(updated).isEqualTo(20);
        assertThat(prepared).as("statements prepared for 120 rows").isLessThanOrEqualTo(11);
    }
}
