package dev.orderflow.order.rest;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.OrderDatabase;
import dev.orderflow.order.events.OrderMessaging;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * The validation matrix of POST /orders and GET /orders: each bad input gets a 4xx
 * application/problem+json naming the field, without a stack trace, and nothing is written or
 * sent. Real MariaDB (orderflow_order_test) and the in-process RocketMQ broker (Dev Services).
 */
@QuarkusTest
class OrderValidationTest {

    private static final String VALID_ITEM = "{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":\"12.50\"}";

    private static String order(String customerId, String phone, String items) {
        return "{\"customerId\":" + customerId + ",\"phone\":" + phone + ",\"items\":" + items + "}";
    }

    /** Columns: body template ({C} = a unique customer id), expected status, field named by the problem. */
    @ParameterizedTest(name = "[{index}] {2}: {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[" + VALID_ITEM + "]|400|body",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[" + VALID_ITEM + "]}}|400|body",
            "[]|400|body",
            "{\"phone\":\"+819012345678\",\"items\":[" + VALID_ITEM + "]}|400|customerId",
            "{\"customerId\":\"  \",\"phone\":\"+819012345678\",\"items\":[" + VALID_ITEM + "]}|400|customerId",
            "{\"customerId\":\"{C}\",\"items\":[" + VALID_ITEM + "]}|400|phone",
            "{\"customerId\":\"{C}\",\"phone\":\"call me\",\"items\":[" + VALID_ITEM + "]}|400|phone",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\"}|400|items",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[]}|400|items",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"quantity\":1,\"unitPrice\":\"1.00\"}]}|400|items[0].sku",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"\",\"quantity\":1,\"unitPrice\":\"1.00\"}]}|400|items[0].sku",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[" + VALID_ITEM + ",{\"sku\":\"S\",\"quantity\":0,\"unitPrice\":\"1.00\"}]}|400|items[1].quantity",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"S\",\"quantity\":-3,\"unitPrice\":\"1.00\"}]}|400|items[0].quantity",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"S\",\"quantity\":1.5,\"unitPrice\":\"1.00\"}]}|400|items[0].quantity",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"S\",\"quantity\":\"2\",\"unitPrice\":\"1.00\"}]}|400|items[0].quantity",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"S\",\"quantity\":1}]}|400|items[0].unitPrice",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"S\",\"quantity\":1,\"unitPrice\":\"-0.01\"}]}|400|items[0].unitPrice",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"S\",\"quantity\":1,\"unitPrice\":\"1.001\"}]}|400|items[0].unitPrice",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"S\",\"quantity\":1,\"unitPrice\":\"abc\"}]}|400|items[0].unitPrice",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[" + VALID_ITEM + "],\"coupon\":\"X\"}|400|coupon",
            "{\"customerId\":\"{C}\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"S\",\"quantiy\":1,\"unitPrice\":\"1.00\"}]}|400|items[0].quantiy",
    })
    void rejectsInvalidOrders(String template, int status, String field) {
        String customerId = "C-" + UUID.randomUUID();
        String body = template.replace("{C}", customerId);

        expectProblem(given().contentType("application/json").body(body).post("/orders").then(), status, field);

        assertNothingWrittenOrSent(customerId);
    }

    @Test
    void rejectsTooManyItems() {
        String customerId = "C-" + UUID.randomUUID();
        String items = "[" + String.join(",", java.util.Collections.nCopies(51, VALID_ITEM)) + "]";

        expectProblem(given().contentType("application/json")
                .body(order("\"" + customerId + "\"", "\"+819012345678\"", items)).post("/orders").then(), 400, "items");
        assertNothingWrittenOrSent(customerId);
    }

    @Test
    void rejectsOversizedBodyWithAProblem() {
        String customerId = "C-" + UUID.randomUUID();
        String padding = "x".repeat(70_000);
        String body = order("\"" + customerId + "\"", "\"+819012345678\"", "[{\"sku\":\"" + padding + "\",\"quantity\":1,\"unitPrice\":\"1.00\"}]");

        given().contentType("application/json").body(body).post("/orders").then()
                .statusCode(413)
                .contentType("application/problem+json")
                .body("status", equalTo(413));
        assertNothingWrittenOrSent(customerId);
    }

    @Test
    void rejectsWrongContentType() {
        String customerId = "C-" + UUID.randomUUID();
        given().contentType("text/plain").body(order("\"" + customerId + "\"", "\"+819012345678\"", "[" + VALID_ITEM + "]"))
                .post("/orders").then()
                .statusCode(415)
                .contentType("application/problem+json")
                .body("status", equalTo(415))
                .body("detail", containsString("application/json"));
        assertNothingWrittenOrSent(customerId);
    }

    @Test
    void rejectsInvalidIdempotencyKey() {
        String customerId = "C-" + UUID.randomUUID();
        expectProblem(given().contentType("application/json").header("Idempotency-Key", "x".repeat(129))
                .body(order("\"" + customerId + "\"", "\"+819012345678\"", "[" + VALID_ITEM + "]"))
                .post("/orders").then(), 400, "Idempotency-Key");
        assertNothingWrittenOrSent(customerId);
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @CsvSource(delimiter = '|', value = {
            "page=0&size=20|customerId",
            "customerId=C-1&size=101|size",
            "customerId=C-1&size=0|size",
            "customerId=C-1&page=-1|page",
            "customerId=C-1&page=one|page",
    })
    void rejectsInvalidListQueries(String query, String field) {
        expectProblem(given().get("/orders?" + query).then(), 400, field);
    }

    @Test
    void unknownOrderAndUnknownPathAreProblems() {
        given().get("/orders/NO-SUCH-ORDER").then().statusCode(404).contentType("application/problem+json")
                .body("status", equalTo(404));
        given().post("/orders/NO-SUCH-ORDER/cancel").then().statusCode(404).contentType("application/problem+json");
        given().get("/no-such-path").then().statusCode(404).contentType("application/problem+json");
    }

    private static void expectProblem(ValidatableResponse response, int status, String field) {
        response.statusCode(status)
                .contentType("application/problem+json")
                .body("status", equalTo(status))
                .body("errors[0].field", equalTo(field))
                .body("detail", containsString(field))
                .body(not(containsString("Exception")))
                .body(not(containsString("\tat ")));
    }

    private static void assertNothingWrittenOrSent(String customerId) {
        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isZero();
        assertThat(TopicProbe.of(OrderMessaging.TOPIC).mentioning(customerId)).isEmpty();
    }
}
