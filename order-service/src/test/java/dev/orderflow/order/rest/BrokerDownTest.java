package dev.orderflow.order.rest;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.OrderDatabase;
import dev.orderflow.order.OrderMetrics;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Broker unreachable (the name server address points at a closed port): POST /orders answers 503
 * with Retry-After and writes nothing to the real MariaDB; the request's access record is counted
 * as dropped (at-most-once), not retried without end.
 */
@QuarkusTest
@TestProfile(BrokerDownTest.BrokerDown.class)
class BrokerDownTest {

    public static class BrokerDown implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "mp.messaging.connector.smallrye-rocketmq.name-server", "127.0.0.1:1",
                    // A consumer cannot start without a name server: this test is about the REST side.
                    "mp.messaging.incoming.order-outcomes.enabled", "false",
                    "mp.messaging.outgoing.order-events.send-timeout", "1000",
                    // The access-log batches fail after this long and count their records as dropped.
                    "mp.messaging.outgoing.access-log.send-timeout", "500");
        }
    }

    @Test
    void createAnswers503WithRetryAfterAndWritesNothing() {
        String customerId = "C-" + UUID.randomUUID();

        given().contentType("application/json")
                .body("{\"customerId\":\"" + customerId + "\",\"phone\":\"+819012345678\","
                        + "\"items\":[{\"sku\":\"SKU-1\",\"quantity\":1,\"unitPrice\":\"1.00\"}]}")
                .post("/orders").then()
                .statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body("status", equalTo(503));

        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isZero();
        await().atMost(Duration.ofSeconds(20)).until(() -> OrderMetrics.accessRecordsDropped() >= 1);
    }
}
