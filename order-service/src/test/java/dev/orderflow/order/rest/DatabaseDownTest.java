package dev.orderflow.order.rest;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.events.OrderMessaging;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Database unreachable (the JDBC URL points at a closed port), broker up (in-process): POST
 * /orders answers 503 with Retry-After and its half message is rolled back, never visible.
 */
@QuarkusTest
@TestProfile(DatabaseDownTest.DatabaseDown.class)
class DatabaseDownTest {

    public static class DatabaseDown implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "quarkus.datasource.jdbc.url", "jdbc:mariadb://127.0.0.1:1/orderflow_order_test",
                    "quarkus.flyway.migrate-at-start", "false",
                    "quarkus.flyway.clean-at-start", "false",
                    "quarkus.hibernate-orm.schema-management.strategy", "none",
                    "quarkus.datasource.jdbc.acquisition-timeout", "PT1S");
        }
    }

    @Test
    void createAnswers503AndNoMessageBecomesVisible() throws Exception {
        String customerId = "C-" + UUID.randomUUID();

        given().contentType("application/json")
                .body("{\"customerId\":\"" + customerId + "\",\"phone\":\"+819012345678\","
                        + "\"items\":[{\"sku\":\"SKU-1\",\"quantity\":1,\"unitPrice\":\"1.00\"}]}")
                .post("/orders").then()
                .statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body("status", equalTo(503));

        TopicProbe probe = TopicProbe.of(OrderMessaging.TOPIC);
        await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(12))
                .until(() -> probe.mentioning(customerId).isEmpty());
    }
}
