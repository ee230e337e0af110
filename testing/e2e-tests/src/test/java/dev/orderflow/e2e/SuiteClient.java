package dev.orderflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import dev.orderflow.suite.SuiteUnderTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * The suite's public HTTP APIs as the end-to-end tests call them (REST Assured; thread-safe), each
 * call with a real token of the suite's issuer: a customer places, follows and reads its own orders
 * and points, an inventory manager sets stock, and checks of another customer's data go as a service.
 */
final class SuiteClient {

    /** Connect 5 s; reads 30 s (a long-poll answers within its wait, 10 s here). */
    private static final RestAssuredConfig CONFIG = RestAssuredConfig.config().httpClient(HttpClientConfig
            .httpClientConfig()
            .setParam("http.connection.timeout", 5_000)
            .setParam("http.socket.timeout", 30_000));

    private final SuiteUnderTest suite;
    private final String service;
    private final String stockManager;

    SuiteClient(SuiteUnderTest suite) {
        this.suite = suite;
        this.service = suite.tokens().service("e2e-tests");
        this.stockManager = suite.tokens().user("e2e-stock", "inventory-manager");
    }

    private static RequestSpecification as(String token) {
        return RestAssured.given().config(CONFIG).auth().oauth2(token);
    }

    private RequestSpecification asCustomer(String customerId) {
        return as(suite.tokens().customer(customerId));
    }

    /** One order line; {@code unitPrice} with two decimals. */
    record Item(String sku, int quantity, String unitPrice) {
        BigDecimal total() {
            return new BigDecimal(unitPrice).multiply(BigDecimal.valueOf(quantity));
        }
    }

    /** What POST /orders answered (201). */
    record PlacedOrder(String orderId, String customerId, List<Item> items, BigDecimal amount, String statusUrl) {
        /** floor(amount × 1): the points-service default rate. */
        long points() {
            return amount.setScale(0, RoundingMode.FLOOR).longValueExact();
        }
    }

    void putStock(String sku, long available) {
        as(stockManager).baseUri(suite.url("inventory-service"))
                .contentType(ContentType.JSON).body(Map.of("available", available))
                .put("/stock/{sku}", sku)
                .then().statusCode(200);
    }

    long stock(String sku) {
        return as(stockManager).baseUri(suite.url("inventory-service"))
                .get("/stock/{sku}", sku)
                .then().statusCode(200).extract().jsonPath().getLong("available");
    }

    long points(String customerId) {
        return asCustomer(customerId).baseUri(suite.url("points-service"))
                .get("/points/{customerId}", customerId)
                .then().statusCode(200).extract().jsonPath().getLong("balance");
    }

    /** The SMS rows of an order, oldest first: each a map with eventType, status, text, ... */
    List<Map<String, Object>> sms(String orderId) {
        return as(service).baseUri(suite.url("sms-service"))
                .queryParam("orderId", orderId)
                .get("/sms")
                .then().statusCode(200).extract().jsonPath().getList("$");
    }

    /** POST /orders; asserts 201 and the amount the service computed. */
    PlacedOrder placeOrder(String customerId, List<Item> items) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("customerId", customerId);
        body.put("phone", "+819012345678");
        List<Map<String, Object>> lines = new ArrayList<>();
        for (Item item : items) {
            lines.add(Map.of("sku", item.sku(), "quantity", item.quantity(), "unitPrice", item.unitPrice()));
        }
        body.put("items", lines);
        Response response = asCustomer(customerId).baseUri(suite.url("order-service"))
                .contentType(ContentType.JSON).body(body)
                .post("/orders");
        assertThat(response.statusCode()).as("POST /orders answered %s", response.asString()).isEqualTo(201);
        JsonPath json = response.jsonPath();
        BigDecimal expected = items.stream().map(Item::total).reduce(BigDecimal.ZERO, BigDecimal::add)
                .setScale(2, RoundingMode.UNNECESSARY);
        BigDecimal amount = new BigDecimal(json.getString("amount"));
        assertThat(amount).as("amount of %s", response.asString()).isEqualTo(expected);
        return new PlacedOrder(json.getString("orderId"), customerId, List.copyOf(items), amount,
                json.getString("statusUrl"));
    }

    /** GET /orders/{id} at order-service. */
    JsonPath order(String orderId) {
        return as(service).baseUri(suite.url("order-service")).get("/orders/{orderId}", orderId)
                .then().statusCode(200).extract().jsonPath();
    }

    /** POST /orders/{id}/cancel, answered. */
    Response cancelResponse(String orderId) {
        return as(service).baseUri(suite.url("order-service")).post("/orders/{orderId}/cancel", orderId);
    }

    /** POST /orders/{id}/cancel and its status code. */
    int cancel(String orderId) {
        return as(service).baseUri(suite.url("order-service"))
                .post("/orders/{orderId}/cancel", orderId)
                .then().extract().statusCode();
    }

    /**
     * Long-polls {@code GET <statusUrl>?wait=PT10S} until the status document satisfies
     * {@code until}; 404 (create not seen yet) and states that do not satisfy it yet are waited out.
     *
     * @return the status document that satisfied {@code until}
     */
    JsonPath awaitStatus(String statusUrl, Predicate<JsonPath> until, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            Response response = as(service).queryParam("wait", "PT10S").get(statusUrl);
            last = response.statusCode() + " " + response.asString();
            if (response.statusCode() == 200) {
                JsonPath status = response.jsonPath();
                if (until.test(status)) {
                    return status;
                }
                if (!"PENDING".equals(status.getString("state"))) {
                    // Not PENDING, so the long-poll answers at once: e.g. COMPLETED while a cancel travels.
                    sleep(Duration.ofMillis(200));
                }
            } else if (response.statusCode() != 404) {
                fail("GET %s answered %s", statusUrl, last);
            }
        }
        return fail("Status at %s did not reach the expected state within %s; last answer: %s", statusUrl, timeout, last);
    }

    /** Waits until the order's state is {@code state} (it may pass through others first). */
    JsonPath awaitState(PlacedOrder order, String state, Duration timeout) {
        return awaitStatus(order.statusUrl(), s -> {
            String now = s.getString("state");
            if ("COMPLETED".equals(state) && "FAILED".equals(now)) {
                fail("Order %s FAILED instead of COMPLETED: %s", order.orderId(), s.prettify());
            }
            return state.equals(now);
        }, timeout);
    }

    /** GET /status/summary of the status service (counts per state, latency percentiles). */
    String statusSummary() {
        return as(service).baseUri(suite.url("status-service")).get("/status/summary")
                .then().statusCode(200).extract().asString();
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
