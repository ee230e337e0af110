package dev.orderflow.order.rest;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.OrderDatabase;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The order API end to end: REST Assured against the running app, the real MariaDB
 * (orderflow_order_test) and the in-process RocketMQ broker; messages observed by a plain
 * RocketMQ consumer on order_topic ({@link TopicProbe}).
 */
@QuarkusTest
class OrderApiTest {

    private static final Duration DELIVERY = Duration.ofSeconds(30);

    private static String body(String customerId, String sku, int quantity, String unitPrice) {
        return "{\"customerId\":\"" + customerId + "\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"" + sku
                + "\",\"quantity\":" + quantity + ",\"unitPrice\":\"" + unitPrice + "\"}]}";
    }

    private static Response post(String body, String idempotencyKey) {
        var request = given().contentType("application/json").body(body);
        if (idempotencyKey != null) {
            request = request.header("Idempotency-Key", idempotencyKey);
        }
        return request.post("/orders");
    }

    @Test
    void createsAnOrderAndPublishesItsCreateEventOnce() throws Exception {
        String customerId = "C-" + UUID.randomUUID();

        Response created = post(body(customerId, "SKU-1", 2, "12.50"), null);

        created.then().statusCode(201)
                .contentType("application/json")
                .body("status", equalTo("CREATED"))
                .body("amount", equalTo("25.00"))
                .body("orderId", matchesPattern("[0-9A-Z]{26}"))
                .body("createdAt", matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3})?Z"));
        String orderId = created.path("orderId");
        assertThat(created.header("Location")).isEqualTo("/orders/" + orderId);
        assertThat((String) created.path("statusUrl")).isEqualTo("http://localhost:8084/orders/" + orderId + "/status");
        assertThat(created.jsonPath().getMap("$").keySet())
                .containsExactlyInAnyOrder("orderId", "status", "amount", "createdAt", "statusUrl");

        given().get("/orders/" + orderId).then().statusCode(200)
                .body("orderId", equalTo(orderId))
                .body("customerId", equalTo(customerId))
                .body("items", hasSize(1))
                .body("items[0].unitPrice", equalTo("12.50"))
                .body("amount", equalTo("25.00"));
        assertThat(OrderDatabase.count("select count(*) from orders where id = ? and amount = 25.00", orderId)).isEqualTo(1);

        String key = orderId + ":create";
        TopicProbe probe = TopicProbe.of(OrderMessaging.TOPIC);
        await().atMost(DELIVERY).until(() -> !probe.withKey(key).isEmpty());
        // Stays exactly one (no second commit, no duplicate from a check-back).
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).until(() -> probe.withKey(key).size() == 1);
        TopicProbe.Received message = probe.withKey(key).get(0);
        assertThat(message.tags()).isEqualTo("create");
        OrderEvent event = OrderEventParser.parse(message.body());
        assertThat(event.eventType()).isEqualTo(OrderEventType.CREATE);
        assertThat(event.orderId()).isEqualTo(orderId);
        assertThat(event.customerId()).isEqualTo(customerId);
        assertThat(event.amount()).isEqualByComparingTo("25.00");
        assertThat(event.items()).singleElement().satisfies(item -> {
            assertThat(item.sku()).isEqualTo("SKU-1");
            assertThat(item.quantity()).isEqualTo(2);
        });
        assertThat(event.occurredAt()).isEqualTo(Instant.parse(created.path("createdAt")));
    }

    @Test
    void retryWithTheSameIdempotencyKeyReturnsTheSameOrderAndSendsNothingNew() throws Exception {
        String customerId = "C-" + UUID.randomUUID();
        String idempotencyKey = "idem-" + UUID.randomUUID();
        String body = body(customerId, "SKU-2", 3, "1.10");

        String orderId = post(body, idempotencyKey).then().statusCode(201).extract().path("orderId");
        Response retried = post(body, idempotencyKey);

        retried.then().statusCode(200).body("orderId", equalTo(orderId)).body("amount", equalTo("3.30"));
        assertThat(retried.header("Location")).isEqualTo("/orders/" + orderId);
        post(body(customerId, "SKU-2", 4, "1.10"), idempotencyKey).then()
                .statusCode(422).contentType("application/problem+json");
        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(1);
        TopicProbe probe = TopicProbe.of(OrderMessaging.TOPIC);
        await().atMost(DELIVERY).until(() -> !probe.mentioning(customerId).isEmpty());
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6))
                .until(() -> probe.mentioning(customerId).size() == 1);
    }

    @Test
    void concurrentRequestsWithOneIdempotencyKeyCreateOneOrder() throws Exception {
        String customerId = "C-" + UUID.randomUUID();
        String idempotencyKey = "idem-" + UUID.randomUUID();
        String body = body(customerId, "SKU-3", 1, "9.99");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Response>> calls = java.util.Collections.nCopies(4, () -> post(body, idempotencyKey));
            List<Response> responses = pool.invokeAll(calls).stream().map(OrderApiTest::join).toList();

            assertThat(responses).extracting(Response::statusCode).allMatch(code -> code == 201 || code == 200)
                    .filteredOn(code -> code == 201).hasSize(1);
            assertThat(responses).extracting(r -> (String) r.path("orderId")).containsOnly((String) responses.get(0).path("orderId"));
        } finally {
            pool.shutdownNow();
        }
        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isEqualTo(1);
        TopicProbe probe = TopicProbe.of(OrderMessaging.TOPIC);
        await().atMost(DELIVERY).until(() -> !probe.mentioning(customerId).isEmpty());
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6))
                .until(() -> probe.mentioning(customerId).size() == 1);
    }

    @Test
    void cancelPublishesACancelEventOnceAndRejectsASecondCancel() throws Exception {
        String customerId = "C-" + UUID.randomUUID();
        String orderId = post(body(customerId, "SKU-4", 1, "5.00"), null).then().statusCode(201).extract().path("orderId");

        given().post("/orders/" + orderId + "/cancel").then().statusCode(200)
                .body("orderId", equalTo(orderId))
                .body("status", equalTo("CANCELLED"));
        given().post("/orders/" + orderId + "/cancel").then().statusCode(409).contentType("application/problem+json");
        given().get("/orders/" + orderId).then().statusCode(200).body("status", equalTo("CANCELLED"));

        TopicProbe probe = TopicProbe.of(OrderMessaging.TOPIC);
        String cancelKey = orderId + ":cancel";
        await().atMost(DELIVERY).until(() -> !probe.withKey(cancelKey).isEmpty());
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> probe.withKey(cancelKey).size() == 1);
        TopicProbe.Received cancel = probe.withKey(cancelKey).get(0);
        assertThat(cancel.tags()).isEqualTo("cancel");
        assertThat(OrderEventParser.parse(cancel.body()).eventType()).isEqualTo(OrderEventType.CANCEL);
    }

    @Test
    void listsACustomersOrdersNewestFirstInBoundedPages() {
        String customerId = "C-" + UUID.randomUUID();
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(post(body(customerId, "SKU-5", i + 1, "1.00"), null).then().statusCode(201).extract().path("orderId"));
        }

        given().get("/orders?customerId=" + customerId + "&page=0&size=2").then().statusCode(200)
                .body("items", hasSize(2))
                .body("items[0].orderId", equalTo(ids.get(2)))
                .body("items[1].orderId", equalTo(ids.get(1)))
                .body("totalItems", equalTo(3))
                .body("totalPages", equalTo(2));
        given().get("/orders?customerId=" + customerId + "&page=1&size=2").then().statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].orderId", equalTo(ids.get(0)));
    }

    @Test
    void exposesHealthMetricsAndOpenApi() {
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200);
        given().get("/q/openapi?format=json").then().statusCode(200).body("paths", org.hamcrest.Matchers.hasKey("/orders"));
    }

    private static Response join(Future<Response> future) {
        try {
            return future.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
