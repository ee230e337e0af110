package dev.orderflow.inventory;

import static dev.orderflow.inventory.Inventory.available;
import static dev.orderflow.inventory.Inventory.awaitConsumed;
import static dev.orderflow.inventory.Inventory.awaitSingleReport;
import static dev.orderflow.inventory.Inventory.cancel;
import static dev.orderflow.inventory.Inventory.create;
import static dev.orderflow.inventory.Inventory.movements;
import static dev.orderflow.inventory.Inventory.newOrderId;
import static dev.orderflow.inventory.Inventory.newSku;
import static dev.orderflow.inventory.Inventory.outcome;
import static dev.orderflow.inventory.Inventory.setStock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.CancelBeforeCreateGuard;
import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.consumer.testing.Deliveries;
import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.inventory.messaging.OrderEventsConsumer;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportJson;
import dev.orderflow.order.events.ConsumerReportParser;
import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Order events sent to order_topic of the real in-process broker with a plain producer, consumed
 * by the running service as inventory_group, observed in the real MariaDB (committed rows only),
 * on order_result_topic and in %DLQ%inventory_group.
 */
@QuarkusTest
class OrderEventConsumptionTest {

    @Inject
    MeterRegistry metrics;

    @Inject
    OrderEventsConsumer consumer;

    private double acked() {
        return metrics.get("rocketmq.messages.acked").tag("channel", "order-events").counter().count();
    }

    @Test
    void createDeductsEveryLineAndReportsDoneOnce() {
        String a = newSku();
        String b = newSku();
        setStock(a, 10);
        setStock(b, 5);
        OrderEvent create = create(newOrderId(), a, 2, b, 1, a, 1);

        OrderTopicSender.send(create);
        awaitConsumed(create);

        assertThat(outcome(create)).isEqualTo("DONE");
        assertThat(available(a)).isEqualTo(7);
        assertThat(available(b)).isEqualTo(4);
        assertThat(movements(create.orderId(), "DEDUCT")).isEqualTo(2);
        ConsumerReport report = awaitSingleReport(create);
        assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        assertThat(report.consumer()).isEqualTo("inventory");
    }

    @Test
    void insufficientStockIsRejectedWithNoPartialDeduction() {
        String plenty = newSku();
        String short1 = newSku();
        setStock(plenty, 10);
        setStock(short1, 1);
        OrderEvent create = create(newOrderId(), plenty, 2, short1, 2);

        OrderTopicSender.send(create);
        awaitConsumed(create);

        assertThat(outcome(create)).isEqualTo("REJECTED");
        assertThat(available(plenty)).as("no partial deduction").isEqualTo(10);
        assertThat(available(short1)).isEqualTo(1);
        assertThat(movements(create.orderId(), "DEDUCT")).isZero();
        ConsumerReport report = awaitSingleReport(create);
        assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.REJECTED);
        assertThat(report.reason()).contains("insufficient stock for " + short1);
    }

    @Test
    void sameMessageDeliveredTenTimesHasOneEffect() {
        String sku = newSku();
        setStock(sku, 100);
        OrderEvent create = create(newOrderId(), sku, 3);
        double ackedBefore = acked();

        for (int i = 0; i < 10; i++) {
            OrderTopicSender.send(create);
        }
        await().atMost(Inventory.PROCESSED).until(() -> acked() - ackedBefore >= 10);

        assertThat(available(sku)).isEqualTo(97);
        assertThat(movements(create.orderId(), "DEDUCT")).isEqualTo(1);
        assertThat(CommittedState.number("select count(*) from consume_record where message_key = ?",
                create.messageKey())).isEqualTo(1);
        assertThat(awaitSingleReport(create).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
    }

    @Test
    void cancelRestoresExactlyWhatTheCreateDeductedOnce() {
        String a = newSku();
        String b = newSku();
        setStock(a, 10);
        setStock(b, 10);
        OrderEvent create = create(newOrderId(), a, 4, b, 1);
        OrderTopicSender.send(create);
        awaitConsumed(create);
        assertThat(available(a)).isEqualTo(6);
        OrderEvent cancel = cancel(create);

        OrderTopicSender.send(cancel);
        OrderTopicSender.send(cancel);
        awaitConsumed(cancel);

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> available(a) == 10);
        assertThat(available(b)).isEqualTo(10);
        assertThat(movements(create.orderId(), "RESTORE")).isEqualTo(2);
        assertThat(awaitSingleReport(cancel).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
    }

    @Test
    void cancelOfARejectedCreateRestoresNothing() {
        String sku = newSku();
        setStock(sku, 1);
        OrderEvent create = create(newOrderId(), sku, 5);
        OrderTopicSender.send(create);
        awaitConsumed(create);
        setStock(sku, 3);

        OrderEvent cancel = cancel(create);
        OrderTopicSender.send(cancel);
        awaitConsumed(cancel);

        assertThat(available(sku)).isEqualTo(3);
        assertThat(movements(create.orderId(), "RESTORE")).isZero();
    }

    /**
     * The compensation of a failed order: the rejected create deducted nothing, so its fail restores
     * nothing and the stock is as it was; a fail consumed before its create leaves a tombstone and
     * the late create deducts nothing. Each reported DONE once.
     */
    @Test
    void aFailedOrderLeavesTheStockAsItWasWhicheverOfCreateAndFailComesFirst() {
        String sku = newSku();
        setStock(sku, 1);
        OrderEvent rejected = create(newOrderId(), sku, 5);
        OrderTopicSender.send(rejected);
        awaitConsumed(rejected);
        assertThat(outcome(rejected)).isEqualTo("REJECTED");
        OrderEvent fail = Inventory.fail(rejected, "insufficient stock for " + sku);
        OrderTopicSender.send(fail);
        OrderTopicSender.send(fail);

        OrderEvent lateCreate = create(newOrderId(), sku, 1);
        OrderEvent earlyFail = Inventory.fail(lateCreate, "insufficient stock elsewhere");
        OrderTopicSender.send(earlyFail);
        awaitConsumed(earlyFail);
        OrderTopicSender.send(lateCreate);
        awaitConsumed(lateCreate);

        assertThat(awaitSingleReport(fail).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        assertThat(awaitSingleReport(earlyFail).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        assertThat(outcome(lateCreate)).isEqualTo("REJECTED");
        assertThat(Inventory.outcomeReason(lateCreate)).isEqualTo(CancelBeforeCreateGuard.FAILED_BEFORE_CREATE);
        assertThat(available(sku)).isEqualTo(1);
        assertThat(movements(rejected.orderId(), "DEDUCT") + movements(rejected.orderId(), "RESTORE")).isZero();
        assertThat(movements(lateCreate.orderId(), "DEDUCT") + movements(lateCreate.orderId(), "RESTORE")).isZero();
    }

    @Test
    void cancelBeforeCreateAppliesNothingEitherTime() {
        String sku = newSku();
        setStock(sku, 10);
        OrderEvent create = create(newOrderId(), sku, 4);
        OrderEvent cancel = cancel(create);

        OrderTopicSender.send(cancel);
        awaitConsumed(cancel);
        assertThat(outcome(cancel)).isEqualTo("DONE");
        OrderTopicSender.send(create);
        awaitConsumed(create);

        assertThat(outcome(create)).isEqualTo("REJECTED");
        assertThat(Inventory.outcomeReason(create)).isEqualTo(CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE);
        assertThat(available(sku)).isEqualTo(10);
        assertThat(movements(create.orderId(), "DEDUCT")).isZero();
        assertThat(awaitSingleReport(cancel).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        ConsumerReport createReport = awaitSingleReport(create);
        assertThat(createReport.outcome()).isEqualTo(ConsumerReport.Outcome.REJECTED);
        assertThat(createReport.reason()).isEqualTo(CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE);
    }

    @Test
    void poisonMessageIsDeadLetteredAfterOneAttemptWhileTheMessagesBehindItAreProcessed() {
        TopicProbe dlq = TopicProbe.of(RocketMQDeadLetters.dlqTopic(OrderMessaging.INVENTORY_GROUP));
        String sku = newSku();
        setStock(sku, 100);
        String poisonOrder = newOrderId();
        String poisonKey = poisonOrder + ":create";

        OrderTopicSender.sendRaw("{\"schemaVersion\":1,\"eventType\":\"create\", this is not json", "create", poisonKey);
        List<OrderEvent> behind = List.of(create(newOrderId(), sku, 1), create(newOrderId(), sku, 2),
                create(newOrderId(), sku, 3));
        behind.forEach(OrderTopicSender::send);

        behind.forEach(Inventory::awaitConsumed);
        assertThat(available(sku)).isEqualTo(94);
        await().atMost(Inventory.PROCESSED).until(() -> !dlq.withKey(poisonKey).isEmpty());
        TopicProbe.Received dead = dlq.withKey(poisonKey).get(0);
        assertThat(dead.property(RocketMQDeadLetters.ATTEMPTS)).isEqualTo("1");
        assertThat(dead.property(RocketMQDeadLetters.FAILURE_CLASS)).isEqualTo("format");
        assertThat(dead.property(RocketMQDeadLetters.FAILURE_REASON)).contains("not JSON");
        assertThat(CommittedState.rows("select failure_class, attempt from consume_failure where message_key = ?",
                poisonKey)).containsExactly(Map.of("failure_class", "format", "attempt", 1));
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> dlq.withKey(poisonKey).size() == 1);
        ConsumerReport report = awaitSingleReport(create(poisonOrder, sku, 1));
        assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DEAD_LETTERED);
        assertThat(report.failureClass()).isEqualTo("format");
    }

    @Test
    void unknownSkuIsABusinessFailureDeadLetteredAtOnceWithNothingDeducted() {
        TopicProbe dlq = TopicProbe.of(RocketMQDeadLetters.dlqTopic(OrderMessaging.INVENTORY_GROUP));
        String known = newSku();
        setStock(known, 10);
        String unknown = "SKU-UNKNOWN-" + UUID.randomUUID().toString().substring(0, 8);
        OrderEvent create = create(newOrderId(), known, 1, unknown, 1);

        OrderTopicSender.send(create);

        await().atMost(Inventory.PROCESSED).until(() -> !dlq.withKey(create.messageKey()).isEmpty());
        TopicProbe.Received dead = dlq.withKey(create.messageKey()).get(0);
        assertThat(dead.property(RocketMQDeadLetters.ATTEMPTS)).isEqualTo("1");
        assertThat(dead.property(RocketMQDeadLetters.FAILURE_CLASS)).isEqualTo("business");
        assertThat(dead.body()).isEqualTo(OrderEventJson.toJson(create));
        assertThat(available(known)).isEqualTo(10);
        assertThat(outcome(create)).isNull();
        ConsumerReport report = awaitSingleReport(create);
        assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DEAD_LETTERED);
        assertThat(report.failureClass()).isEqualTo("business");
        assertThat(report.reason()).contains(unknown);
    }

    @Test
    void reportLeftInTheOutboxWithoutAWakeUpIsSentByTheSweep() {
        TopicProbe results = TopicProbe.of(ConsumerReports.TOPIC);
        String orderId = newOrderId();
        ConsumerReport leftOver = ConsumerReport.done(orderId, OrderEventType.CREATE, ConsumerReports.INVENTORY,
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
        // Written by an instance that committed and died before its relay ran: nobody wakes this relay up.
        CommittedState.execute("insert into consume_report (consumer_group, message_key, report_key, consumer, outcome,"
                + " body, created_at) values (?, ?, ?, ?, ?, ?, utc_timestamp(3))", Inventory.GROUP,
                orderId + ":create", leftOver.messageKey(), leftOver.consumer(), "DONE", ConsumerReportJson.toJson(leftOver));

        await().atMost(Duration.ofSeconds(30)).until(() -> !results.withKey(leftOver.messageKey()).isEmpty());
        await().atMost(Duration.ofSeconds(10)).until(() -> CommittedState.number(
                "select count(*) from consume_report where report_key = ?", leftOver.messageKey()) == 0);
        assertThat(ConsumerReportParser.parse(results.withKey(leftOver.messageKey()).get(0).body())).isEqualTo(leftOver);
    }

    /**
     * One batch holding an order's create and its cancel, with another order on the same SKUs: the
     * batch locks the stock rows up front and writes its movements at its end, and the cancel still
     * finds (and reverses) what its create deducted earlier in the same batch.
     */
    @Test
    void aCreateAndItsCancelInOneBatchLeaveTheStockAsItWas() throws Exception {
        String a = newSku();
        String b = newSku();
        setStock(a, 10);
        setStock(b, 10);
        OrderEvent cancelled = create(newOrderId(), a, 2, b, 1);
        OrderEvent kept = create(newOrderId(), b, 3, a, 1);
        Deliveries.Delivered delivered = Deliveries.batchOf(List.of(cancelled, kept, cancel(cancelled)), Inventory.GROUP);

        consumer.onOrderEvent(delivered.batch()).toCompletableFuture().get(60, TimeUnit.SECONDS);

        assertThat(delivered.acks()).isEqualTo(1);
        assertThat(available(a)).isEqualTo(9);
        assertThat(available(b)).isEqualTo(7);
        assertThat(movements(cancelled.orderId(), "DEDUCT")).isEqualTo(2);
        assertThat(movements(cancelled.orderId(), "RESTORE")).isEqualTo(2);
        assertThat(movements(kept.orderId(), "DEDUCT")).isEqualTo(2);
        assertThat(outcome(cancel(cancelled))).isEqualTo("DONE");
    }
}
