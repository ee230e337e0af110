package dev.orderflow.status;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.status.StatusClient.allDone;
import static dev.orderflow.status.StatusClient.awaitState;
import static dev.orderflow.status.StatusClient.get;
import static dev.orderflow.status.StatusClient.newOrderId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.CancelBeforeCreateGuard;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * The status service against the real in-process RocketMQ broker (Dev Services) and the real
 * MariaDB: events, reports and dead letters are sent to the broker as the other services would
 * send them, and the outcome is read through the REST API and the database.
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class OrderStatusFlowTest {

    private static final Duration ARRIVAL = Duration.ofSeconds(30);
    private static final String ISO_MILLIS = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    @Test
    void createThenThreeDoneReportsCompletesTheOrder() {
        String orderId = newOrderId();
        Instant createdAt = Instant.parse("2026-11-29T07:00:00Z");
        StatusBroker.send(StatusBroker.orderEvent(OrderEventType.CREATE, orderId, createdAt));
        JsonPath pending = awaitState(orderId, "PENDING");
        assertThat(pending.getMap("consumers")).containsExactly(Map.entry("inventory", "PENDING"),
                Map.entry("sms", "PENDING"), Map.entry("points", "PENDING"));

        StatusBroker.done(orderId, OrderEventType.CREATE, "inventory");
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        await().atMost(ARRIVAL).until(() -> "DONE".equals(get(orderId).jsonPath().getString("consumers.sms")));
        get(orderId).then().body("state", equalTo("PENDING")).body("completedAt", nullValue())
                .body("consumers.inventory", equalTo("DONE")).body("consumers.points", equalTo("PENDING"));

        StatusBroker.done(orderId, OrderEventType.CREATE, "points");
        awaitState(orderId, "COMPLETED");
        get(orderId).then()
                .statusCode(200)
                .body("orderId", equalTo(orderId))
                .body("consumers.inventory", equalTo("DONE"))
                .body("consumers.sms", equalTo("DONE"))
                .body("consumers.points", equalTo("DONE"))
                .body("createdAt", equalTo("2026-11-29T07:00:00.000Z"))
                .body("completedAt", matchesPattern(ISO_MILLIS))
                .body("failure", nullValue());
        // Both keys present even when null: tools rely on the exact shape.
        String body = get(orderId).asString();
        assertThat(body).contains("\"failure\":null").startsWith("{\"orderId\":");
    }

    @Test
    void reportsBeforeTheCreateCompleteTheOrderOnceTheCreateArrives() {
        String orderId = newOrderId();
        allDone(orderId, OrderEventType.CREATE);
        await().atMost(ARRIVAL).until(() -> StatusDatabase.count(
                "select count(*) from order_consumer_outcome where order_id = ?", orderId) == 3);

        get(orderId).then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body("detail", containsString("no create event received yet for order " + orderId));

        StatusBroker.sendCreate(orderId);
        JsonPath completed = awaitState(orderId, "COMPLETED");
        assertThat(completed.getString("completedAt")).matches(ISO_MILLIS);
        assertThat(Instant.parse(completed.getString("completedAt")))
                .isAfterOrEqualTo(Instant.parse(completed.getString("createdAt")));
    }

    @Test
    void theSameReportFiveTimesIsAppliedOnce() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        ConsumerReport report = ConsumerReport.rejected(orderId, OrderEventType.CREATE, "inventory",
                "insufficient stock for SKU-1", Instant.now());
        for (int i = 0; i < 5; i++) {
            StatusBroker.send(report);
        }
        awaitState(orderId, "FAILED");
        // Later copies are the same message key: recorded once by the pipeline, never re-applied.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(
                () -> StatusDatabase.consumeRecords("status_report_group", report.messageKey()) == 1);
        assertThat(StatusDatabase.count("select count(*) from order_consumer_outcome where order_id = ?", orderId))
                .isEqualTo(1);
    }

    @Test
    void aRejectionFailsTheOrderNamingConsumerAndReason() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.send(ConsumerReport.rejected(orderId, OrderEventType.CREATE, "inventory",
                "insufficient stock for SKU-1", Instant.now()));
        awaitState(orderId, "FAILED");
        // A later failure of another consumer does not replace the first one.
        StatusBroker.send(ConsumerReport.deadLettered(orderId, OrderEventType.CREATE, "points", "business",
                "unknown customer", Instant.now()));
        await().atMost(ARRIVAL).until(() -> "DEAD_LETTERED".equals(get(orderId).jsonPath().getString("consumers.points")));
        get(orderId).then()
                .body("state", equalTo("FAILED"))
                .body("completedAt", nullValue())
                .body("consumers.inventory", equalTo("REJECTED"))
                .body("consumers.sms", equalTo("DONE"))
                .body("failure.consumer", equalTo("inventory"))
                .body("failure.class", equalTo("business"))
                .body("failure.reason", equalTo("insufficient stock for SKU-1"));
    }

    @Test
    void aSystemDeadLetterInTheInventoryDlqPutsTheOrderInAttentionUncompensated() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.done(orderId, OrderEventType.CREATE, "points");
        StatusBroker.deadLetter(OrderMessaging.INVENTORY_GROUP, orderId, "system",
                "SQLTransientConnectionException: connection refused");
        awaitState(orderId, "ATTENTION");
        get(orderId).then()
                .body("consumers.inventory", equalTo("DEAD_LETTERED"))
                .body("failure.consumer", equalTo("inventory"))
                .body("failure.class", equalTo("system"))
                .body("failure.reason", equalTo("SQLTransientConnectionException: connection refused"))
                .body("compensation", nullValue());
        // Not decided: no outcome published for it, nothing to compensate.
        assertThat(StatusDatabase.count("select count(*) from order_message_consume_status where order_id = ?"
                + " and failed_at is null and completed_at is null", orderId)).isEqualTo(1);
        assertThat(StatusDatabase.consumeRecords("status_dlq_inventory", "dlq:inventory_group:" + orderId + ":create"))
                .isEqualTo(1);
    }

    @Test
    void aCancelEndsCancelledOnceEveryConsumerReversedIt() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        allDone(orderId, OrderEventType.CREATE);
        JsonPath completed = awaitState(orderId, "COMPLETED");

        StatusBroker.sendCancel(orderId);
        // While the reversals run, the order follows its cancel: PENDING, consumers pending.
        JsonPath cancelling = awaitState(orderId, "PENDING");
        assertThat(cancelling.getMap("consumers")).containsOnly(Map.entry("inventory", "PENDING"),
                Map.entry("sms", "PENDING"), Map.entry("points", "PENDING"));
        assertThat(cancelling.getString("completedAt")).isEqualTo(completed.getString("completedAt"));

        StatusBroker.done(orderId, OrderEventType.CANCEL, "inventory");
        StatusBroker.done(orderId, OrderEventType.CANCEL, "sms");
        await().atMost(ARRIVAL).until(() -> "DONE".equals(get(orderId).jsonPath().getString("consumers.sms")));
        get(orderId).then().body("state", equalTo("PENDING"));

        StatusBroker.done(orderId, OrderEventType.CANCEL, "points");
        awaitState(orderId, "CANCELLED");
        get(orderId).then().body("consumers.points", equalTo("DONE")).body("failure", nullValue());
    }

    @Test
    void aCreateRejectedAsCancelledBeforeCreateFollowsTheCancelInsteadOfFailing() {
        // A consumer with CancelBeforeCreateGuard that consumed the cancel first rejects the create
        // with "cancelled before create"; its cancel report may reach this service later.
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        awaitState(orderId, "PENDING");
        StatusBroker.send(ConsumerReport.rejected(orderId, OrderEventType.CREATE, "inventory",
                CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE, Instant.now()));
        await().atMost(ARRIVAL).until(() -> StatusDatabase.count(
                "select count(*) from order_consumer_outcome where order_id = ?", orderId) == 1);
        get(orderId).then()
                .body("state", equalTo("PENDING"))
                .body("failure", nullValue())
                .body("consumers.inventory", equalTo("PENDING"));

        allDone(orderId, OrderEventType.CANCEL);
        JsonPath cancelled = awaitState(orderId, "CANCELLED");
        assertThat(cancelled.getString("failure")).isNull();
        assertThat(cancelled.getString("completedAt")).isNull();
    }

    @Test
    void longPollAnswersPromptlyWhenTheStateChanges() throws Exception {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "inventory");
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        await().atMost(ARRIVAL).until(() -> "DONE".equals(get(orderId).jsonPath().getString("consumers.sms")));

        Thread completer = new Thread(() -> {
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            StatusBroker.done(orderId, OrderEventType.CREATE, "points");
        });
        long start = System.nanoTime();
        completer.start();
        Response response = given().queryParam("wait", "PT25S").get("/orders/{orderId}/status", orderId);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        completer.join();

        response.then().statusCode(200).body("state", equalTo("COMPLETED"));
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(900)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void longPollAnswersPendingAtTheTimeout() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        awaitState(orderId, "PENDING");

        long start = System.nanoTime();
        given().queryParam("wait", "PT2S").get("/orders/{orderId}/status", orderId)
                .then().statusCode(200).body("state", equalTo("PENDING"));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(1_900)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void longPollOnAnOrderNotYetCreatedWaitsForItsCreate() {
        String orderId = newOrderId();
        allDone(orderId, OrderEventType.CREATE);
        Thread creator = new Thread(() -> {
            await().atMost(ARRIVAL).until(() -> StatusDatabase.count(
                    "select count(*) from order_consumer_outcome where order_id = ?", orderId) == 3);
            StatusBroker.sendCreate(orderId);
        });
        creator.start();
        given().queryParam("wait", "PT25S").get("/orders/{orderId}/status", orderId)
                .then().statusCode(200).body("state", equalTo("COMPLETED"));
    }

    @Test
    void unknownOrdersAnswer404ProblemsSayingSo() {
        given().get("/orders/{orderId}/status", "NO-SUCH-ORDER-1").then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("title", equalTo("Order not found"))
                .body("detail", containsString("no status for order NO-SUCH-ORDER-1"));
        long start = System.nanoTime();
        given().queryParam("wait", "PT1S").get("/orders/{orderId}/status", "NO-SUCH-ORDER-2").then()
                .statusCode(404)
                .contentType("application/problem+json");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }

    @Test
    void readinessCoversEveryInputChannelAndTheApiIsDescribed() {
        String health = given().get("/q/health/ready").then().statusCode(200).extract().asString();
        assertThat(health).contains("order-events", "consumer-reports", "dead-letters-inventory", "dead-letters-sms",
                "dead-letters-points");
        given().get("/q/openapi").then().statusCode(200).body(containsString("/orders/{orderId}/status"));
    }

    @Test
    void badInputIsA400ProblemWithoutStackTrace() {
        for (String wait : new String[] { "10s", "PT-5S", "soon" }) {
            String body = given().queryParam("wait", wait).get("/orders/{orderId}/status", "ANY")
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("errors[0].field", equalTo("wait")).extract().asString();
            assertThat(body).doesNotContain("Exception").doesNotContain("at dev.");
        }
        given().get("/orders/{orderId}/status", "bad:id").then().statusCode(400).body("errors[0].field", equalTo("orderId"));
        given().get("/orders/status").then().statusCode(400).body("errors[0].field", equalTo("state"));
        given().queryParam("state", "DONE").get("/orders/status").then().statusCode(400).body("errors[0].field", equalTo("state"));
        given().queryParam("state", "FAILED").queryParam("size", "0").get("/orders/status").then()
                .statusCode(400).body("errors[0].field", equalTo("size"));
        given().queryParam("state", "FAILED").queryParam("size", "101").get("/orders/status").then()
                .statusCode(400).body("errors[0].field", equalTo("size"));
        given().queryParam("state", "FAILED").queryParam("page", "-1").get("/orders/status").then()
                .statusCode(400).body("errors[0].field", equalTo("page"));
        given().queryParam("state", "FAILED").queryParam("page", "x").get("/orders/status").then()
                .statusCode(400).contentType("application/problem+json").body("errors[0].field", equalTo("page"));
    }

    @Test
    void listAndSummaryShapes() {
        String failed = newOrderId();
        StatusBroker.sendCreate(failed);
        StatusBroker.send(ConsumerReport.rejected(failed, OrderEventType.CREATE, "points", "customer blocked",
                Instant.now()));
        awaitState(failed, "FAILED");
        String completed = newOrderId();
        StatusBroker.sendCreate(completed);
        allDone(completed, OrderEventType.CREATE);
        awaitState(completed, "COMPLETED");

        JsonPath page = given().queryParam("state", "FAILED").queryParam("page", "0").queryParam("size", "100")
                .get("/orders/status").then().statusCode(200).extract().jsonPath();
        assertThat(page.getString("state")).isEqualTo("FAILED");
        assertThat(page.getInt("page")).isZero();
        assertThat(page.getInt("size")).isEqualTo(100);
        assertThat(page.getLong("total")).isGreaterThanOrEqualTo(1);
        assertThat(page.getList("orders.orderId")).contains(failed).doesNotContain(completed);
        assertThat(page.getList("orders.state")).containsOnly("FAILED");
        assertThat(page.getString("orders.find { it.orderId == '" + failed + "' }.failure.consumer")).isEqualTo("points");

        JsonPath summary = given().get("/status/summary").then().statusCode(200).extract().jsonPath();
        assertThat(summary.getMap("counts")).containsOnlyKeys("PENDING", "COMPLETED", "FAILED", "CANCELLED",
                "ATTENTION");
        assertThat(summary.getLong("compensationsPending")).as("the failed order is not compensated yet").isGreaterThanOrEqualTo(1);
        assertThat(summary.getLong("counts.COMPLETED")).isGreaterThanOrEqualTo(1);
        assertThat(summary.getLong("counts.FAILED")).isGreaterThanOrEqualTo(1);
        assertThat(summary.getString("latency.window")).isEqualTo("PT15M");
        assertThat(summary.getInt("latency.samples")).isGreaterThanOrEqualTo(1);
        long p50 = summary.getLong("latency.p50Ms");
        long p99 = summary.getLong("latency.p99Ms");
        long max = summary.getLong("latency.maxMs");
        assertThat(p50).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(summary.getLong("latency.p90Ms"));
        assertThat(p99).isLessThanOrEqualTo(max);

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("orderflow_status_completion_latency_seconds_bucket")
                .contains("orderflow_status_completion_latency_seconds_count");
    }
}
