package dev.orderflow.order.rest;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.DatabaseLinkResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * {@code POST /orders} parses on the event loop but must not create there: with a single event
 * loop and the database link stalled, so that every create waits for its commit, a health check
 * sent while creates wait is answered before any of them. A create run on the event loop would
 * hold it until the database answered, and the health check would be answered only after a create.
 */
@QuarkusTest
@TestProfile(CreateOffEventLoopTest.OneEventLoop.class)
class CreateOffEventLoopTest {

    private static final int CREATES = 2;

    public static class OneEventLoop implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.vertx.event-loops-pool-size", "1");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(DatabaseLinkResource.class, Map.of("database", "orderflow_order_test")));
        }
    }

    private final ExecutorService clients = Executors.newFixedThreadPool(CREATES);

    @AfterEach
    void stopClients() throws InterruptedException {
        clients.shutdownNow();
        clients.awaitTermination(30, TimeUnit.SECONDS);
    }

    @Test
    void healthAnswersWhileCreatesWaitForTheirCommit() throws Exception {
        String customerId = "C-" + UUID.randomUUID();
        List<Future<Response>> creates = new ArrayList<>();
        long answeredBeforeHealth;
        DatabaseLinkResource.link().stall();
        try {
            for (int i = 0; i < CREATES; i++) {
                creates.add(clients.submit(() -> given().contentType("application/json")
                        .body("{\"customerId\":\"" + customerId + "\",\"phone\":\"+819012345678\","
                                + "\"items\":[{\"sku\":\"SKU-1\",\"quantity\":1,\"unitPrice\":\"1.00\"}]}")
                        .post("/orders")));
            }
            // Give the creates time to reach the server and be parsed (they then wait for the database).
            Thread.sleep(500);
            // The database answers again in 3 s whatever happens: a create holding the event loop then
            // lets the health check through after it, and the assertion below fails instead of hanging.
            CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS).execute(DatabaseLinkResource.link()::resume);

            given().get("/q/health/live").then().statusCode(200);
            answeredBeforeHealth = creates.stream().filter(Future::isDone).count();
        } finally {
            DatabaseLinkResource.link().resume();
        }

        for (Future<Response> create : creates) {
            create.get(60, TimeUnit.SECONDS).then().statusCode(201);
        }
        assertThat(answeredBeforeHealth).as("creates answered before the health check").isZero();
    }
}
