package dev.orderflow.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.rocketmq.IncomingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQBatchFailure;
import dev.orderflow.status.messaging.StatusInputs;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * One delivered batch holding several reports about the same orders, handed to the report input
 * as the connector would: each order's row is locked once for the batch, every report of it is
 * applied, and an element that cannot be applied fails alone.
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class BatchedReportsTest {

    @Inject
    StatusInputs inputs;

    /** A batch message of these reports, first delivery, recording its nack cause (null: acked). */
    private static Message<List<String>> batch(List<ConsumerReport> reports, AtomicReference<Object> settled) {
        List<IncomingRocketMQMetadata> metadata = new ArrayList<>();
        for (int i = 0; i < reports.size(); i++) {
            metadata.add(new IncomingRocketMQMetadata("MSG-BATCH-" + System.nanoTime() + "-" + i,
                    List.of(reports.get(i).messageKey()), reports.get(i).consumer(), "order_result_topic", i % 4,
                    "broker-a", i, 0, System.currentTimeMillis(), System.currentTimeMillis(), Map.of(),
                    "status_report_group"));
        }
        return Message.of(reports.stream().map(ConsumerReportJson::toJson).toList(),
                Metadata.of(new IncomingRocketMQBatchMetadata(metadata)),
                () -> {
                    settled.set("acked");
                    return CompletableFuture.completedFuture(null);
                },
                cause -> {
                    settled.set(cause);
                    return CompletableFuture.completedFuture(null);
                });
    }

    @Test
    void aBatchWithEveryReportOfTwoOrdersCompletesBothAndFailsOnlyTheBadElement() {
        String first = StatusClient.newOrderId();
        String second = StatusClient.newOrderId();
        StatusBroker.sendCreate(first);
        StatusBroker.sendCreate(second);
        StatusClient.awaitState(first, "PENDING");
        StatusClient.awaitState(second, "PENDING");
        Instant now = Instant.now();
        String overlong = "X".repeat(65);
        List<ConsumerReport> reports = List.of(
                ConsumerReport.done(first, OrderEventType.CREATE, "inventory", now),
                ConsumerReport.done(second, OrderEventType.CREATE, "sms", now),
                ConsumerReport.done(first, OrderEventType.CREATE, "sms", now),
                ConsumerReport.done(overlong, OrderEventType.CREATE, "sms", now),
                ConsumerReport.done(second, OrderEventType.CREATE, "points", now),
                ConsumerReport.done(first, OrderEventType.CREATE, "points", now),
                ConsumerReport.done(second, OrderEventType.CREATE, "inventory", now));
        AtomicReference<Object> settled = new AtomicReference<>();

        inputs.onConsumerReport(batch(reports, settled)).toCompletableFuture().join();

        assertThat(settled.get()).isInstanceOf(RocketMQBatchFailure.class);
        assertThat(((RocketMQBatchFailure) settled.get()).failures()).containsOnlyKeys(3);
        for (String orderId : List.of(first, second)) {
            StatusClient.get(orderId).then().statusCode(200)
                    .body("state", org.hamcrest.Matchers.equalTo("COMPLETED"));
            assertThat(StatusDatabase.count("select count(*) from order_consumer_outcome where order_id = ?", orderId))
                    .isEqualTo(3);
        }
        assertThat(StatusDatabase.count("select count(*) from order_message_consume_status where order_id = ?", overlong))
                .isZero();
    }

    @Test
    void aBatchThatChangesAnOrderSeveralTimesLeavesItsLastStateAndItsFirstFailure() {
        String failing = StatusClient.newOrderId();
        String unopened = StatusClient.newOrderId();
        StatusBroker.sendCreate(failing);
        StatusClient.awaitState(failing, "PENDING");
        Instant occurredAt = Instant.parse("2026-11-29T10:15:30.123Z");
        List<ConsumerReport> reports = List.of(
                ConsumerReport.done(unopened, OrderEventType.CREATE, "inventory", occurredAt),
                ConsumerReport.done(failing, OrderEventType.CREATE, "sms", occurredAt),
                ConsumerReport.rejected(failing, OrderEventType.CREATE, "inventory", "insufficient stock for SKU-9",
                        occurredAt),
                ConsumerReport.done(unopened, OrderEventType.CREATE, "sms", occurredAt),
                ConsumerReport.deadLettered(failing, OrderEventType.CREATE, "points", "business", "unknown customer",
                        occurredAt),
                ConsumerReport.done(unopened, OrderEventType.CREATE, "points", occurredAt));
        AtomicReference<Object> settled = new AtomicReference<>();

        inputs.onConsumerReport(batch(reports, settled)).toCompletableFuture().join();

        assertThat(settled.get()).isEqualTo("acked");
        // Three changes of one order in one batch: the first failure is the one that stays.
        StatusClient.get(failing).then().statusCode(200)
                .body("state", org.hamcrest.Matchers.equalTo("FAILED"))
                .body("consumers.sms", org.hamcrest.Matchers.equalTo("DONE"))
                .body("consumers.inventory", org.hamcrest.Matchers.equalTo("REJECTED"))
                .body("consumers.points", org.hamcrest.Matchers.equalTo("DEAD_LETTERED"))
                .body("failure.consumer", org.hamcrest.Matchers.equalTo("inventory"))
                .body("failure.reason", org.hamcrest.Matchers.equalTo("insufficient stock for SKU-9"));
        assertThat(StatusDatabase.count("select count(*) from order_consumer_outcome where order_id = ?"
                + " and occurred_at = '2026-11-29 10:15:30.123'", failing)).isEqualTo(3);
        // Reports before the create: the order's row exists, unopened, with every outcome.
        StatusClient.get(unopened).then().statusCode(404);
        assertThat(StatusDatabase.count("select count(*) from order_consumer_outcome where order_id = ?", unopened))
                .isEqualTo(3);
        StatusBroker.sendCreate(unopened);
        StatusClient.awaitState(unopened, "COMPLETED");
    }

    /**
     * A batch locks the rows of the orders it names and no others, however small the table. In a new
     * deployment's table MariaDB may read a long IN list by scanning every row, and a locking scan
     * waits for rows that other transactions hold: two batches deadlock, each holding rows the other's
     * scan reaches. The test empties the status tables to be that deployment.
     */
    @Test
    void aBatchDoesNotWaitForAnOrderItDoesNotNameEvenWhenTheTableIsAlmostEmpty() throws Exception {
        try (Connection connection = CommittedState.connect(); Statement statement = connection.createStatement()) {
            // The service may still be recording other tests' late reports: outcomes reference statuses.
            statement.execute("set foreign_key_checks = 0");
            statement.execute("delete from order_consumer_outcome");
            statement.execute("delete from order_message_consume_status");
        }
        String held = StatusClient.newOrderId();
        StatusBroker.sendCreate(held);
        StatusClient.awaitState(held, "PENDING");
        // Statistics as a new deployment's: a table of a row or two.
        CommittedState.rows("analyze table order_message_consume_status");
        Instant now = Instant.now();
        List<String> orders = IntStream.range(0, 60).mapToObj(i -> StatusClient.newOrderId()).toList();
        List<ConsumerReport> reports = orders.stream()
                .map(orderId -> ConsumerReport.done(orderId, OrderEventType.CREATE, "inventory", now)).toList();
        AtomicReference<Object> settled = new AtomicReference<>();

        try (Connection other = CommittedState.connect()) {
            other.setAutoCommit(false);
            try (PreparedStatement lock = other.prepareStatement(
                    "select order_id from order_message_consume_status where order_id = ? for update")) {
                lock.setString(1, held);
                try (ResultSet row = lock.executeQuery()) {
                    assertThat(row.next()).as("the held order's row").isTrue();
                }
            }
            CompletableFuture<Void> applied = CompletableFuture.runAsync(
                    () -> inputs.onConsumerReport(batch(reports, settled)).toCompletableFuture().join());
            // Well within innodb_lock_wait_timeout (50 s): a batch that waits for the held row is still waiting.
            applied.get(20, TimeUnit.SECONDS);
            other.rollback();
        }

        assertThat(settled.get()).isEqualTo("acked");
        String inOrders = " in (" + String.join(", ", orders.stream().map(o -> "?").toList()) + ")";
        assertThat(StatusDatabase.count("select count(*) from order_consumer_outcome where consumer = 'inventory'"
                + " and order_id" + inOrders, orders.toArray())).isEqualTo(orders.size());
        // One transaction applied them all (each stamps its records with its own instant), not each report alone
        // after the batch failed.
        assertThat(StatusDatabase.count("select count(distinct processed_at) from consume_record"
                + " where consumer_group = 'status_report_group' and message_key"
                + inOrders, reports.stream().map(ConsumerReport::messageKey).toArray()))
                .as("transactions that applied the batch").isEqualTo(1);
    }
}
