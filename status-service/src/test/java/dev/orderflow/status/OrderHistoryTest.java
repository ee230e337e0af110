package dev.orderflow.status;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.status.StatusClient.allDone;
import static dev.orderflow.status.StatusClient.awaitState;
import static dev.orderflow.status.StatusClient.newOrderId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * {@code GET /orders/{orderId}/status/history}: each required consumer's flag per event (create, cancel,
 * compensation) with when it was reached and how status-service learned it, and the order's milestones.
 * Real in-process broker, real MariaDB.
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class OrderHistoryTest {

    private static final Duration ARRIVAL = Duration.ofSeconds(30);
    private static final List<String> CONSUMERS = List.of("inventory", "sms", "points");

    @Test
    void aCancelledOrderShowsItsCreateAndCancelFlagsAndWhenItWasCreatedCompletedAndCancelled() {
        String orderId = newOrderId();
        Instant sent = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        StatusBroker.sendCreate(orderId);
        allDone(orderId, OrderEventType.CREATE);
        awaitState(orderId, "COMPLETED");
        StatusBroker.sendCancel(orderId);
        allDone(orderId, OrderEventType.CANCEL);
        awaitState(orderId, "CANCELLED");

        JsonPath history = history(orderId);
        assertThat(history.getString("orderId")).isEqualTo(orderId);
        assertThat(history.getString("state")).isEqualTo("CANCELLED");
        assertThat(history.getList("events.event")).containsExactly("create", "cancel");
        for (String event : List.of("create", "cancel")) {
            assertThat(history.getList("events.find { it.event == '" + event + "' }.consumers.consumer"))
                    .containsExactlyElementsOf(CONSUMERS);
            List<Map<String, Object>> flags = history.getList("events.find { it.event == '" + event + "' }.consumers");
            assertThat(flags).allSatisfy(flag -> {
                assertThat(flag).containsEntry("state", "DONE").containsEntry("source", "report")
                        .containsEntry("class", null).containsEntry("reason", null);
                assertThat(Instant.parse((String) flag.get("at"))).isAfterOrEqualTo(sent);
                assertThat(Instant.parse((String) flag.get("recordedAt"))).isAfterOrEqualTo(sent);
            });
        }
        Instant created = Instant.parse(history.getString("createdAt"));
        Instant completed = Instant.parse(history.getString("completedAt"));
        Instant cancelRequested = Instant.parse(history.getString("cancelRequestedAt"));
        Instant cancelled = Instant.parse(history.getString("cancelledAt"));
        assertThat(created).isAfterOrEqualTo(sent);
        assertThat(completed).isAfterOrEqualTo(created);
        assertThat(cancelRequested).isAfterOrEqualTo(completed);
        assertThat(cancelled).isAfterOrEqualTo(cancelRequested);
        assertThat(history.getString("failedAt")).isNull();
        assertThat(history.getString("failure")).isNull();
        // The milestones agree with the status body.
        JsonPath status = StatusClient.get(orderId).jsonPath();
        assertThat(history.getString("createdAt")).isEqualTo(status.getString("createdAt"));
        assertThat(history.getString("completedAt")).isEqualTo(status.getString("completedAt"));
    }

    @Test
    void aFailedOrderShowsTheRejectionAndEachConsumersCompensationAsItIsReported() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.done(orderId, OrderEventType.CREATE, "points");
        Instant rejectedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        StatusBroker.send(ConsumerReport.rejected(orderId, OrderEventType.CREATE, "inventory",
                "insufficient stock for SKU-1: 2 requested, 1 available", rejectedAt));
        awaitState(orderId, "FAILED");

        JsonPath failed = history(orderId);
        assertThat(failed.getList("events.event")).containsExactly("create", "compensation");
        Map<String, Object> inventory = failed.getMap("events[0].consumers[0]");
        assertThat(inventory).containsEntry("consumer", "inventory").containsEntry("state", "REJECTED")
                .containsEntry("source", "report").containsEntry("class", "business")
                .containsEntry("reason", "insufficient stock for SKU-1: 2 requested, 1 available");
        assertThat(Instant.parse((String) inventory.get("at"))).isEqualTo(rejectedAt);
        assertThat(failed.getList("events[1].consumers.state")).containsExactly("PENDING", "PENDING", "PENDING");
        assertThat(failed.getList("events[1].consumers.at")).containsExactly(null, null, null);
        assertThat(failed.getString("failure.consumer")).isEqualTo("inventory");
        assertThat(Instant.parse(failed.getString("failedAt"))).isAfterOrEqualTo(Instant.parse(failed.getString("createdAt")));
        assertThat(failed.getString("completedAt")).isNull();

        StatusBroker.done(orderId, OrderEventType.FAIL, "sms");
        await().atMost(ARRIVAL).until(() -> "DONE".equals(history(orderId).getString("events[1].consumers[1].state")));
        JsonPath compensating = history(orderId);
        assertThat(compensating.getList("events[1].consumers.state")).containsExactly("PENDING", "DONE", "PENDING");
        assertThat(compensating.getString("events[1].consumers[1].at")).isNotNull();
        assertThat(compensating.getString("events[1].consumers[0].at")).isNull();
    }

    @Test
    void aDeadLetteredCreateShowsWhereItWasLearnedAndWhatTheOrderWaitsFor() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "inventory");
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.deadLetter(OrderMessaging.POINTS_GROUP, orderId, "system", "points ledger locked");
        awaitState(orderId, "ATTENTION");

        JsonPath history = history(orderId);
        assertThat(history.getList("events.event")).containsExactly("create");
        assertThat(history.getMap("events[0].consumers[2]")).containsEntry("consumer", "points")
                .containsEntry("state", "DEAD_LETTERED").containsEntry("source", "dead-letter-queue")
                .containsEntry("class", "system").containsEntry("reason", "points ledger locked");
        assertThat(history.getString("failure.reason")).isEqualTo("points ledger locked");
    }

    @Test
    void anUnknownOrderIs404AndAMalformedIdIs400() {
        given().get("/orders/{orderId}/status/history", "NO-SUCH-ORDER-1").then()
                .statusCode(404).contentType("application/problem+json");
        given().get("/orders/{orderId}/status/history", "bad:id").then()
                .statusCode(400).body("errors[0].field", equalTo("orderId"));
    }

    private static JsonPath history(String orderId) {
        return given().get("/orders/{orderId}/status/history", orderId).then().statusCode(200).extract().jsonPath();
    }
}
