package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
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
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The relay thread running, as in the services: a committed batch's reports are sent from memory
 * (handed over by {@link ConsumeReporter} after the commit) and their outbox rows deleted, also
 * when deletes fail for a while. The sweep runs every 2 s here but leaves alone the rows the relay
 * holds and rows younger than that, so a report that reaches the topic went the in-memory way; the
 * sweep itself is {@link ConsumeReportingTest}'s subject. Real MariaDB and the in-process broker.
 */
@QuarkusTest
@TestProfile(ConsumeReportRelayTest.RelayRunning.class)
class ConsumeReportRelayTest {

    private static final String CONSUMER = "pipeline-test";

    private static final String REFUSE_DELETES = "create trigger consume_report_delete_refused before delete on"
            + " consume_report for each row signal sqlstate '45000' set message_text = 'delete refused by the test'";
    private static final String ALLOW_DELETES = "drop trigger if exists consume_report_delete_refused";

    /** The relay thread on; the sweep, and a failed delete's next try, every 2 s; sent rows deleted 1.5 s after their send. */
    public static class RelayRunning implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orderflow.idempotent-consumer.reporting.relay-enabled", "true",
                    "orderflow.idempotent-consumer.reporting.sweep-interval", "PT2S",
                    "orderflow.idempotent-consumer.reporting.delete-delay", "PT1.5S");
        }
    }

    @Inject
    IdempotentConsumer consumer;

    @Inject
    TestEffects effects;

    private static long outboxRows(List<String> reportKeys) {
        return keysInOutbox(reportKeys).size();
    }

    /**
     * The keys among {@code reportKeys} that still have an outbox row, read with one statement: one
     * snapshot, so a DELETE is seen either wholly or not at all (reading key by key, or round by
     * round, can straddle it).
     */
    private static List<String> keysInOutbox(List<String> reportKeys) {
        return Database.rows("select report_key from consume_report where report_key in ("
                + String.join(", ", Collections.nCopies(reportKeys.size(), "?")) + ")", reportKeys.toArray()).stream()
                .map(row -> (String) row.get("report_key")).toList();
    }

    @Test
    void aCommittedBatchsReportsAreSentFromMemoryOnceEachAndTheirRowsDeleted() {
        // The start sweep sends and deletes what other tests left.
        await().atMost(Duration.ofSeconds(60)).until(() -> Database.count("select count(*) from consume_report") == 0);
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        List<OrderEvent> events = consumeBatch(7);
        List<String> reportKeys = reportKeys(events);

        await().atMost(Duration.ofSeconds(30)).until(() -> reportKeys.stream().allMatch(k -> !probe.withKey(k).isEmpty()));
        await().atMost(Duration.ofSeconds(10)).alias("rows deleted after SEND_OK").until(() -> outboxRows(reportKeys) == 0);
        for (int i = 0; i < events.size(); i++) {
            OrderEvent event = events.get(i);
            assertThat(probe.withKey(reportKeys.get(i))).as(reportKeys.get(i)).singleElement().satisfies(received -> {
                assertThat(received.tags()).isEqualTo(CONSUMER);
                ConsumerReport report = ConsumerReportParser.parse(received.body());
                assertThat(report.orderId()).isEqualTo(event.orderId());
                assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
            });
        }
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).alias("each report sent once")
                .until(() -> sentOnce(probe, reportKeys));
    }

    @Test
    void theRowsOfRoundsSentWithinTheDeleteDelayAreDeletedTogetherAfterIt() {
        await().atMost(Duration.ofSeconds(60)).until(() -> Database.count("select count(*) from consume_report") == 0);
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        List<String> first = reportKeys(consumeBatch(2));
        await().atMost(Duration.ofSeconds(30)).alias("first round sent")
                .until(() -> first.stream().allMatch(k -> !probe.withKey(k).isEmpty()));
        List<String> second = reportKeys(consumeBatch(3));
        await().atMost(Duration.ofSeconds(30)).alias("second round sent")
                .until(() -> second.stream().allMatch(k -> !probe.withKey(k).isEmpty()));
        // Both rounds went out well within the 1.5 s delete-delay of the first one's send.
        assertThat(outboxRows(first)).as("first round's rows, sent, not yet deleted").isEqualTo(2);
        assertThat(outboxRows(second)).as("second round's rows, sent, not yet deleted").isEqualTo(3);

        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        // One DELETE takes both rounds' rows: no reading ever sees one round's rows gone and the other's left.
        await().pollInterval(Duration.ofMillis(10)).atMost(Duration.ofSeconds(10)).alias("both rounds deleted together")
                .until(() -> {
                    List<String> left = keysInOutbox(all);
                    long firstLeft = left.stream().filter(first::contains).count();
                    long secondLeft = left.size() - firstLeft;
                    assertThat(firstLeft == 0).as("first round deleted (%d left) exactly when the second (%d left)",
                            firstLeft, secondLeft).isEqualTo(secondLeft == 0);
                    return firstLeft + secondLeft == 0;
                });
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).alias("each report sent once")
                .until(() -> sentOnce(probe, all));
    }

    @Test
    void reportsAreSentOnceEachWhileTheirDeletesFailAndTheRowsAreDeletedWhenDeletesWorkAgain() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> Database.count("select count(*) from consume_report") == 0);
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        execute(REFUSE_DELETES);
        try {
            List<String> first = reportKeys(consumeBatch(3));
            await().atMost(Duration.ofSeconds(30)).alias("first batch sent although its delete fails")
                    .until(() -> first.stream().allMatch(k -> !probe.withKey(k).isEmpty()));
            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(6))
                    .alias("rows kept and held: neither deleted nor sent again by the delete's retries or the sweep")
                    .until(() -> outboxRows(first) == first.size() && sentOnce(probe, first));

            List<String> second = reportKeys(consumeBatch(4));
            await().atMost(Duration.ofSeconds(30)).alias("the next batch sent while deletes still fail")
                    .until(() -> second.stream().allMatch(k -> !probe.withKey(k).isEmpty()));
            assertThat(outboxRows(first) + outboxRows(second)).as("no row deleted yet").isEqualTo(7);

            execute(ALLOW_DELETES);
            List<String> all = new ArrayList<>(first);
            all.addAll(second);
            await().atMost(Duration.ofSeconds(30)).alias("rows deleted once deletes work").until(() -> outboxRows(all) == 0);
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).alias("each report sent once")
                    .until(() -> sentOnce(probe, all));
        } finally {
            execute(ALLOW_DELETES);
        }
    }

    /** Consumes, as one delivered batch, the create events of {@code size} new orders. */
    private List<OrderEvent> consumeBatch(int size) {
        List<OrderEvent> events = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            events.add(OrderEvent.of(OrderEventType.CREATE, "O-" + UUID.randomUUID(), "C-1", "+819012345678",
                    List.of(new OrderItem("SKU-1", 1, new BigDecimal("3.00"))),
                    Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        }
        Deliveries.Delivered delivered = Deliveries.deliverBatch(events.stream().map(OrderEventJson::toJson).toList(),
                events.stream().map(OrderEvent::messageKey).toList());
        consumer.consume(delivered.batch, OrderEventParser::parse, OrderEvent::messageKey, (event, context) -> {
            effects.apply(context.messageKey());
            return Outcome.done();
        }).toCompletableFuture().join();
        assertThat(delivered.acks).hasValue(1);
        return events;
    }

    private static List<String> reportKeys(List<OrderEvent> events) {
        return events.stream().map(e -> ConsumerReports.messageKey(e.orderId(), e.eventType(), CONSUMER)).toList();
    }

    private static boolean sentOnce(TopicProbe probe, List<String> reportKeys) {
        return reportKeys.stream().allMatch(k -> probe.withKey(k).size() == 1);
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = Database.connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
