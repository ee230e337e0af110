package dev.orderflow.order.messaging;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.OrderDatabase;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.rocketmq.embedded.TransactionRecords;
import dev.orderflow.rocketmq.embedded.TransactionRecords.Decision;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * How an order ended, learned from the status service's outcomes (sent here to
 * order_outcome_topic by a plain producer, as status-service does): COMPLETED and the end of a
 * cancellation are recorded on the order; a FAILED order gets its failure and one fail event
 * (transactional, its check-back answered from the row), never for an order that is no longer
 * CREATED. Real in-process broker (Dev Services) and MariaDB (orderflow_order_test).
 */
@QuarkusTest
class OrderOutcomeTest {

    private static final Duration DELIVERY = Duration.ofSeconds(30);
    private static final OrderFailure SHORT_STOCK = new OrderFailure("inventory", "business",
            "insufficient stock for SKU-1: 2 requested, 1 available");

    @Test
    void aCompletedOutcomeIsRecordedOnceWithItsTime() {
        String orderId = placeOrder();
        Instant reachedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        OrderTopicSender.send(OrderOutcome.completed(orderId, reachedAt));
        JsonPath order = await().atMost(DELIVERY).until(() -> order(orderId), o -> "COMPLETED".equals(o.getString("status")));
        assertThat(order.getString("outcomeAt")).isEqualTo(reachedAt.toString());
        assertThat((Object) order.get("failure")).isNull();

        // Sent once the first is recorded: two sends may land on two queues and be consumed in either order.
        OrderTopicSender.send(OrderOutcome.completed(orderId, reachedAt.plusSeconds(5)));
        // The duplicate (a later time) changes nothing while it is delivered: the version counts one update.
        await().during(Duration.ofSeconds(3)).atMost(DELIVERY).until(() -> OrderDatabase.count(
                "select count(*) from orders where id = ? and version = 1", orderId) == 1
                && reachedAt.toString().equals(order(orderId).getString("outcomeAt")));
        assertThat(TopicProbe.of(OrderMessaging.TOPIC).withKey(orderId + ":fail")).isEmpty();
    }

    @Test
    void aFailedOutcomeFailsTheOrderAndSendsOneFailEventWithTheFailure() throws Exception {
        String orderId = placeOrder();
        Instant reachedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        OrderTopicSender.send(OrderOutcome.failed(orderId, SHORT_STOCK, reachedAt));
        OrderTopicSender.send(OrderOutcome.failed(orderId, SHORT_STOCK, reachedAt));

        JsonPath order = await().atMost(DELIVERY).until(() -> order(orderId), o -> "FAILED".equals(o.getString("status")));
        assertThat(order.getString("outcomeAt")).isEqualTo(reachedAt.toString());
        assertThat(order.getString("failure.consumer")).isEqualTo("inventory");
        assertThat(order.getString("failure.class")).isEqualTo("business");
        assertThat(order.getString("failure.reason")).isEqualTo(SHORT_STOCK.reason());

        String key = orderId + ":fail";
        TopicProbe probe = TopicProbe.of(OrderMessaging.TOPIC);
        await().atMost(DELIVERY).until(() -> !probe.withKey(key).isEmpty());
        OrderEvent fail = OrderEventParser.parse(probe.withKey(key).get(0).body());
        assertThat(fail.eventType()).isEqualTo(OrderEventType.FAIL);
        assertThat(fail.failure()).isEqualTo(SHORT_STOCK);
        assertThat(fail.items()).hasSize(1);
        assertThat(probe.withKey(key).get(0).tags()).isEqualTo("fail");
        // The duplicate outcome found the order FAILED: it sent no second fail event. The broker
        // decided the only half message with this key (committed), nothing else is waiting.
        await().atMost(DELIVERY).until(() -> TransactionRecords.decision(TopicProbe.nameServer(), OrderMessaging.TOPIC,
                key), d -> d == Decision.COMMITTED);
        assertThat(probe.withKey(key)).hasSize(1);
        assertThat(OrderDatabase.count("select count(*) from orders where id = ? and version = 1", orderId)).isEqualTo(1);
    }

    @Test
    void aFailedOrderCannotBeCancelledAndSaysWhy() {
        String orderId = placeOrder();
        OrderTopicSender.send(OrderOutcome.failed(orderId, SHORT_STOCK, Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        await().atMost(DELIVERY).until(() -> order(orderId), o -> "FAILED".equals(o.getString("status")));

        given().post("/orders/" + orderId + "/cancel").then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("type", containsString("order-failed"))
                .body("detail", containsString("insufficient stock for SKU-1"))
                .body("detail", containsString("nothing to cancel"));
        assertThat(TopicProbe.of(OrderMessaging.TOPIC).withKey(orderId + ":cancel")).isEmpty();
        given().get("/orders/" + orderId).then().body("status", equalTo("FAILED"));
    }

    @Test
    void aFailedOutcomeForACancelledOrderSendsNothingAndItsCancellationEndIsRecorded() {
        String orderId = placeOrder();
        given().post("/orders/" + orderId + "/cancel").then().statusCode(200).body("status", equalTo("CANCELLED"))
                .body("outcomeAt", nullValue());

        OrderTopicSender.send(OrderOutcome.failed(orderId, SHORT_STOCK, Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        Instant cancelled = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        OrderTopicSender.send(OrderOutcome.cancelled(orderId, cancelled));

        JsonPath order = await().atMost(DELIVERY).until(() -> order(orderId), o -> o.getString("outcomeAt") != null);
        assertThat(order.getString("status")).isEqualTo("CANCELLED");
        assertThat(order.getString("outcomeAt")).isEqualTo(cancelled.toString());
        assertThat((Object) order.get("failure")).isNull();
        // Both outcomes were consumed (the group is not behind), and the FAILED one sent no fail event.
        assertThat(TopicProbe.of(OrderMessaging.TOPIC).withKey(orderId + ":fail")).isEmpty();
    }

    @Test
    void anUnreadableOutcomeIsDeadLetteredAndTheOnesBehindItAreApplied() {
        String orderId = placeOrder();
        TopicProbe deadLetters = TopicProbe.of("%DLQ%order_outcome_group");

        OrderTopicSender.sendRaw(OrderOutcome.TOPIC, "{\"orderId\":\"" + orderId + "\",\"outcome\":\"completed\"}",
                "completed", orderId + ":completed");
        OrderTopicSender.send(OrderOutcome.completed(orderId, Instant.now().truncatedTo(ChronoUnit.MILLIS)));

        await().atMost(DELIVERY).until(() -> order(orderId), o -> "COMPLETED".equals(o.getString("status")));
        await().atMost(DELIVERY).untilAsserted(() -> assertThat(deadLetters.withKey(orderId + ":completed"))
                .singleElement().satisfies(m -> assertThat(m.property("DLQ_FAILURE_CLASS")).isEqualTo("format")));
    }

    private static String placeOrder() {
        return given().contentType("application/json")
                .body("{\"customerId\":\"C-" + UUID.randomUUID() + "\",\"phone\":\"+819012345678\","
                        + "\"items\":[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":\"12.50\"}]}")
                .post("/orders").then().statusCode(201).extract().path("orderId");
    }

    private static JsonPath order(String orderId) {
        return given().get("/orders/" + orderId).then().statusCode(200).extract().jsonPath();
    }
}
