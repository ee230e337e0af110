package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
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
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The relay thread running, as in the services: a committed batch's reports are sent from memory
 * (handed over by {@link ConsumeReporter} after the commit) and their outbox rows deleted. The
 * sweep runs only at start here (interval one hour), so a report that reaches the topic afterwards
 * went the in-memory way; the sweep itself is {@link ConsumeReportingTest}'s subject. Real MariaDB
 * and the in-process broker.
 */
@QuarkusTest
@TestProfile(ConsumeReportRelayTest.RelayRunning.class)
class ConsumeReportRelayTest {

    private static final String CONSUMER = "pipeline-test";

    /** The relay thread on, the sweep only at start. */
    public static class RelayRunning implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orderflow.idempotent-consumer.reporting.relay-enabled", "true",
                    "orderflow.idempotent-consumer.reporting.sweep-interval", "PT1H");
        }
    }

    @Inject
    IdempotentConsumer consumer;

    @Inject
    TestEffects effects;

    private static long outboxRows(List<String> reportKeys) {
        long rows = 0;
        for (String key : reportKeys) {
            rows += Database.count("select count(*) from consume_report where report_key = ?", key);
        }
        return rows;
    }

    @Test
    void aCommittedBatchsReportsAreSentFromMemoryOnceEachAndTheirRowsDeleted() {
        // The start sweep sends and deletes what other tests left; after it, only the in-memory way sends.
        await().atMost(Duration.ofSeconds(60)).until(() -> Database.count("select count(*) from consume_report") == 0);
        TopicProbe probe = TopicProbe.of(ConsumerReports.TOPIC);
        List<OrderEvent> events = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            events.add(OrderEvent.of(OrderEventType.CREATE, "O-" + UUID.randomUUID(), "C-1", "+819012345678",
                    List.of(new OrderItem("SKU-1", 1, new BigDecimal("3.00"))),
                    Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        }
        List<String> reportKeys = events.stream()
                .map(e -> ConsumerReports.messageKey(e.orderId(), e.eventType(), CONSUMER)).toList();

        Deliveries.Delivered delivered = Deliveries.deliverBatch(events.stream().map(OrderEventJson::toJson).toList(),
                events.stream().map(OrderEvent::messageKey).toList());
        consumer.consume(delivered.batch, OrderEventParser::parse, OrderEvent::messageKey, (event, context) -> {
            effects.apply(context.messageKey());
            return Outcome.done();
        }).toCompletableFuture().join();

        assertThat(delivered.acks).hasValue(1);
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
                .until(() -> reportKeys.stream().allMatch(k -> probe.withKey(k).size() == 1));
    }
}
