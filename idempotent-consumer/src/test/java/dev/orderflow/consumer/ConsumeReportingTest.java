package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportParser;
import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Result reports: the consume_report outbox row commits with the effect (or not at all) and the
 * relay sends it to order_result_topic and deletes it. Real MariaDB (orderflow_pipeline_test) and
 * the in-process broker; the relay thread is off in this test app, so each test drives
 * {@link ConsumeReportRelay#relayPending()} itself and can look at the outbox in between.
 */
@QuarkusTest
class ConsumeReportingTest {

    private static final String CONSUMER = "pipeline-test";

    @Inject
    IdempotentConsumer consumer;

    @Inject
    ConsumeReportRelay relay;

    @Inject
    TestEffects effects;

    @Inject
    EntityManager entityManager;

    private static OrderEvent newOrderEvent() {
        return OrderEvent.of(OrderEventType.CREATE, "O-" + UUID.randomUUID(), "C-1", "+819012345678",
                List.of(new OrderItem("SKU-1", 1, new BigDecimal("3.00"))), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    private static String reportKey(OrderEvent event) {
        return ConsumerReports.messageKey(event.orderId(), event.eventType(), CONSUMER);
    }

    private static List<Map<String, Object>> outbox(String reportKey) {
        return Database.rows("select outcome, consumer, body from consume_report where report_key = ?", reportKey);
    }

    private void consume(OrderEvent event, int reconsumeTimes, MessageHandler<OrderEvent> handler) {
        Deliveries.Delivered delivered = Deliveries.deliver(OrderEventJson.toJson(event), event.messageKey(),
                reconsumeTimes);
        consumer.consume(delivered.message, OrderEventParser::parse, OrderEvent::messageKey, handler)
                .toCompletableFuture().join();
    }

    private MessageHandler<OrderEvent> applying() {
        return (e, context) -> {
            effects.apply(context.messageKey());
            return Outcome.done();
        };
    }

    @Test
    void doneReportIsCommittedWithTheEffectOncePerEffect() {
        OrderEvent event = newOrderEvent();

        for (int attempt = 0; attempt < 3; attempt++) {
            consume(event, attempt, applying());
        }

        assertThat(Database.effects(event.messageKey())).isEqualTo(1);
        List<Map<String, Object>> rows = outbox(reportKey(event));
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("outcome", "DONE").containsEntry("consumer", CONSUMER);
            ConsumerReport report = ConsumerReportParser.parse((String) row.get("body"));
            assertThat(report.orderId()).isEqualTo(event.orderId());
            assertThat(report.eventType()).isEqualTo(OrderEventType.CREATE);
            assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        });
    }

    @Test
    void rejectedOutcomeIsReportedWithItsReason() {
        OrderEvent event = newOrderEvent();

        consume(event, 0, (e, context) -> Outcome.rejected("insufficient stock for SKU-1"));

        assertThat(outbox(reportKey(event))).singleElement().satisfies(row -> {
            ConsumerReport report = ConsumerReportParser.parse((String) row.get("body"));
            assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.REJECTED);
            assertThat(report.reason()).isEqualTo("insufficient stock for SKU-1");
        });
    }

    @Test
    void rolledBackEffectLeavesNoReportAndTheRetryReportsOnce() {
        OrderEvent event = newOrderEvent();

        consume(event, 0, (e, context) -> {
            effects.apply(context.messageKey());
            throw new SQLTransientConnectionException("connection lost after the effect");
        });

        assertThat(Database.effects(event.messageKey())).isZero();
        assertThat(outbox(reportKey(event))).as("no report for a rolled-back effect").isEmpty();

        consume(event, 1, applying());

        assertThat(Database.effects(event.messageKey())).isEqualTo(1);
        assertThat(outbox(reportKey(event))).singleElement().extracting(row -> row.get("outcome")).isEqualTo("DONE");
    }

    @Test
    void permanentFailuresAreReportedAsDeadLetteredWithClassAndReason() {
        OrderEvent unknownSku = newOrderEvent();
        consume(unknownSku, 0, (e, context) -> {
            effects.apply(context.messageKey());
            throw new BusinessFailure("unknown SKU SKU-404");
        });
        String poisonOrder = "O-" + UUID.randomUUID();
        Deliveries.Delivered poison = Deliveries.deliver("{not json", poisonOrder + ":cancel", 0);
        consumer.consume(poison.message, OrderEventParser::parse, OrderEvent::messageKey, applying())
                .toCompletableFuture().join();

        assertThat(Database.effects(unknownSku.messageKey())).isZero();
        assertThat(outbox(reportKey(unknownSku))).singleElement().satisfies(row -> {
            ConsumerReport report = ConsumerReportParser.parse((String) row.get("body"));
            assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DEAD_LETTERED);
            assertThat(report.failureClass()).isEqualTo("business");
            assertThat(report.reason()).isEqualTo("unknown SKU SKU-404");
        });
        assertThat(outbox(ConsumerReports.messageKey(poisonOrder, OrderEventType.CANCEL, CONSUMER)))
                .as("subject taken from the message's KEYS when the body is unreadable")
                .singleElement().satisfies(row -> {
                    ConsumerReport report = ConsumerReportParser.parse((String) row.get("body"));
                    assertThat(report.failureClass()).isEqualTo("format");
                    assertThat(report.reason()).contains("not JSON");
                });
    }

    @Test
    void transientFailureIsNotReported() {
        OrderEvent event = newOrderEvent();

        consume(event, 0, (e, context) -> {
            throw new SQLTransientConnectionException("database down");
        });

        assertThat(Database.failures(event.messageKey())).hasSize(1);
        assertThat(outbox(reportKey(event))).as("retried, so no outcome yet").isEmpty();
    }

    @Test
    void relaySendsEachReportToTheResultTopicAndDeletesIt() throws Exception {
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        OrderEvent event = newOrderEvent();
        consume(event, 0, applying());
        assertThat(outbox(reportKey(event))).hasSize(1);

        assertThat(relay.relayPending()).isPositive();

        assertThat(outbox(reportKey(event))).as("deleted after SEND_OK").isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> probe.withKey(reportKey(event)).size() == 1);
        TopicProbe.Received received = probe.withKey(reportKey(event)).get(0);
        assertThat(received.tags()).isEqualTo(CONSUMER);
        ConsumerReport report = ConsumerReportParser.parse(received.body());
        assertThat(report.orderId()).isEqualTo(event.orderId());
        assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> probe.withKey(reportKey(event)).size() == 1);
    }

    @Test
    void reportSentButNotDeletedBeforeACrashIsSentAgain() throws Exception {
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        OrderEvent event = newOrderEvent();
        consume(event, 0, applying());
        PendingReport row = QuarkusTransaction.requiringNew().call(() -> entityManager
                .createQuery("from PendingReport r where r.reportKey = :key", PendingReport.class)
                .setParameter("key", reportKey(event)).getSingleResult());

        // What a relay that died between SEND_OK and the delete leaves behind: a sent report and its row.
        relay.send(row);
        assertThat(outbox(reportKey(event))).hasSize(1);

        relay.relayPending();

        assertThat(outbox(reportKey(event))).isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> probe.withKey(reportKey(event)).size() == 2);
        assertThat(probe.withKey(reportKey(event))).extracting(TopicProbe.Received::body).as("the same report twice")
                .containsOnly(row.body);
    }
}
