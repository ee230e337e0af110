package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;


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
        List<PendingReport> rows = QuarkusTransaction.requiringNew().call(() -> PendingReport.list("reportKey",
                reportKey(event)));
        assertThat(rows).hasSize(1);
        PendingReport row = rows.get(0);

        // What a relay that died between SEND_OK and the delete leaves behind: a sent report and its row.
        relay.send(row);
        assertThat(outbox(reportKey(event))).hasSize(1);

        relay.relayPending();

        assertThat(outbox(reportKey(event))).isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> probe.withKey(reportKey(event)).size() == 2);
        assertThat(probe.withKey(reportKey(event))).extracting(TopicProbe.Received::body).as("the same report twice")
                .containsOnly(row.body);
    }

    /** Outbox rows as ConsumeReporter writes them, straight into the table: report key, tag (consumer), body. */
    private record Row(String reportKey, String tag, String body) {
    }

    private static void insert(List<Row> rows) throws SQLException {
        try (Connection connection = Database.connect(); PreparedStatement insert = connection.prepareStatement(
                "insert into consume_report (consumer_group, message_key, report_key, consumer, outcome, body, created_at)"
                        + " values ('test_group', ?, ?, ?, 'DONE', ?, ?)")) {
            for (Row row : rows) {
                insert.setString(1, row.reportKey());
                insert.setString(2, row.reportKey());
                insert.setString(3, row.tag());
                insert.setString(4, row.body());
                insert.setTimestamp(5, Timestamp.from(Instant.now()));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static long outboxRowsStartingWith(String prefix) {
        return Database.count("select count(*) from consume_report where report_key like ?", prefix + "%");
    }

    private static List<Row> rows(String run, int count) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // Three tags, so that a tag taken from the wrong element would show.
            rows.add(new Row(run + "-" + i + ":create:c" + (i % 3), "tag-" + (i % 3), "{\"run\":\"" + run + "\",\"n\":" + i + "}"));
        }
        return rows;
    }

    @Test
    void moreRowsThanOneBatchAreAllSentOnceWithTheirKeysAndTagsAndAllDeleted() throws Exception {
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        String run = "R-" + UUID.randomUUID();
        List<Row> rows = rows(run, 250); // batch-size is 100: three rounds

        insert(rows);
        int sent = relay.relayPending();

        assertThat(sent).as("this test's rows and any left by other tests").isGreaterThanOrEqualTo(250);
        assertThat(outboxRowsStartingWith(run)).as("deleted after SEND_OK").isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> probe.withKeyPrefix(run).size() >= 250);
        for (Row row : rows) {
            assertThat(probe.withKey(row.reportKey())).as(row.reportKey()).singleElement().satisfies(r -> {
                assertThat(r.tags()).isEqualTo(row.tag());
                assertThat(r.body()).isEqualTo(row.body());
            });
        }
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> probe.withKeyPrefix(run).size() == 250);
    }

    /**
     * A batch the client refuses (one element has an empty body, which RocketMQ does not send)
     * fails as a whole: no report of it reaches the topic and no row is deleted; once the bad row
     * is gone the others are sent and deleted.
     */
    @Test
    void failedSendDeletesNoRowAndTheRowsAreSentByALaterRound() throws Exception {
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        relay.relayPending(); // rows left by other tests, so that this round holds only this test's rows
        String run = "F-" + UUID.randomUUID();
        List<Row> good = rows(run, 5);
        String badKey = run + "-bad:create:c0";
        insert(good);
        insert(List.of(new Row(badKey, "tag-0", "")));
        try {
            int sent = relay.relayPending();

            assertThat(sent).isZero();
            assertThat(outboxRowsStartingWith(run)).as("nothing deleted").isEqualTo(6);
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                    .until(() -> probe.withKeyPrefix(run).isEmpty());
        } finally {
            try (Connection connection = Database.connect();
                    PreparedStatement delete = connection.prepareStatement("delete from consume_report where report_key = ?")) {
                delete.setString(1, badKey);
                delete.executeUpdate();
            }
        }

        assertThat(relay.relayPending()).isEqualTo(5);

        assertThat(outboxRowsStartingWith(run)).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> probe.withKeyPrefix(run).size() >= 5);
        for (Row row : good) {
            assertThat(probe.withKey(row.reportKey())).as(row.reportKey()).singleElement()
                    .satisfies(r -> assertThat(r.tags()).isEqualTo(row.tag()));
        }
    }
}
