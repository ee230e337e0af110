package dev.orderflow.status;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEventType;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * The required set is configuration: with {@code inventory,sms} an order completes after those
 * two, and points (still reporting) is neither waited for nor shown. Real broker and MariaDB.
 */
@QuarkusTest
@TestProfile(TwoRequiredConsumersTest.InventoryAndSmsOnly.class)
@WithTestResource(StatusTopics.class)
class TwoRequiredConsumersTest {

    public static class InventoryAndSmsOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orderflow.status.required-consumers", "inventory,sms");
        }
    }

    @Test
    void anOrderCompletesOnceTheTwoRequiredConsumersAreDone() {
        String orderId = StatusClient.newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "inventory");
        StatusClient.awaitState(orderId, "PENDING");
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");

        JsonPath completed = StatusClient.awaitState(orderId, "COMPLETED");
        assertThat(completed.getMap("consumers")).containsExactly(Map.entry("inventory", "DONE"), Map.entry("sms", "DONE"));
        assertThat(completed.getString("completedAt")).isNotNull();

        // A report of a consumer that is not required changes nothing visible.
        StatusBroker.send(ConsumerReport.rejected(orderId, OrderEventType.CREATE, "points",
                "customer blocked", Instant.now()));
        await().atMost(Duration.ofSeconds(30)).until(() -> StatusDatabase.count(
                "select count(*) from order_consumer_outcome where order_id = ? and consumer = 'points'", orderId) == 1);
        given().get("/orders/{orderId}/status", orderId).then()
                .body("state", equalTo("COMPLETED"))
                .body("failure", nullValue());
    }
}
