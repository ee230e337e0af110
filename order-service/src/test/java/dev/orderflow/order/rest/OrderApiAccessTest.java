package dev.orderflow.order.rest;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.fuzz.AccessMatrix;
import dev.orderflow.rest.fuzz.ApiCallers;
import dev.orderflow.tokens.TokenIssuer;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Who may call the order API, with real tokens verified by the running app: every operation × every
 * kind of caller ({@link AccessMatrix}), and the rules behind it (a customer orders for itself, sees
 * its own orders and nobody else's, as if they did not exist).
 */
@QuarkusTest
class OrderApiAccessTest {

    private static String body(String customerId) {
        String customer = customerId == null ? "" : "\"customerId\":\"" + customerId + "\",";
        return "{" + customer + "\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"SKU-1\",\"quantity\":1,"
                + "\"unitPrice\":\"2.00\"}]}";
    }

    /** A new order of {@code customerId}, placed by a service. */
    private static String orderOf(String customerId) {
        return given().contentType("application/json").body(body(customerId)).post("/orders").then().statusCode(201)
                .extract().jsonPath().getString("orderId");
    }

    @Test
    void everyOperationAnswersEachKindOfCallerAsTheRulesSay() {
        String owner = "C-ACL-" + UUID.randomUUID();
        String order = orderOf(owner);
        AccessMatrix matrix = new AccessMatrix(owner);
        // Statuses in AccessMatrix.Who order: none, forged, owner, other customer, inventory-manager, viewer,
        // operator, approver, service.
        matrix.expect("POST", "/orders", body(owner), "401 401 201 403 403 403 403 403 201")
                .expect("GET", "/orders/{orderId}", who -> "/orders/" + order, null, "401 401 200 404 403 200 200 200 200")
                .expect("GET", "/orders?customerId=" + owner, null, "401 401 200 403 403 200 200 200 200")
                // A fresh order per caller: a cancel changes it.
                .expect("POST", "/orders/{orderId}/cancel", who -> "/orders/" + orderOf(owner) + "/cancel", null,
                        "401 401 200 404 403 403 403 403 200")
                // The ledger spans every customer's orders: services and staff only.
                .expect("GET", "/ledger/orders?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&limit=10", null,
                        "401 401 403 403 403 200 200 200 200")
                .expect("POST", "/ledger/orders/existing", "[\"" + order + "\"]", "401 401 403 403 403 200 200 200 200")
                .verify();
    }

    @Test
    void aCustomerOrdersForItselfWhetherOrNotTheBodyNamesIt() {
        String customer = "C-SELF-" + UUID.randomUUID();
        String orderId = ApiCallers.asCustomer(customer).contentType("application/json").body(body(null))
                .post("/orders").then().statusCode(201).extract().jsonPath().getString("orderId");
        ApiCallers.asCustomer(customer).get("/orders/{orderId}", orderId).then().statusCode(200)
                .body("customerId", equalTo(customer));
        ApiCallers.asCustomer(customer).contentType("application/json").body(body("C-SOMEONE-ELSE")).post("/orders")
                .then().statusCode(403).contentType("application/problem+json")
                .body("detail", containsString("for itself only"));
        // A service must name the customer.
        given().contentType("application/json").body(body(null)).post("/orders").then().statusCode(400)
                .body("errors[0].field", equalTo("customerId"));
        // A customer token without its customer id owns nothing.
        ApiCallers.withToken(ApiCallers.TOKENS.token("nobody", List.of("customer"), null, Duration.ofMinutes(5)))
                .contentType("application/json").body(body(null)).post("/orders").then().statusCode(403);

        List<String> listed = ApiCallers.asCustomer(customer).get("/orders").then().statusCode(200).extract().jsonPath()
                .getList("items.customerId");
        assertThat(listed).containsExactly(customer);
    }

    @Test
    void tokensThatAreExpiredForAnotherAudienceOrIssuerOrUnsignedAreRefused() {
        TokenIssuer tokens = ApiCallers.TOKENS;
        String customer = "C-TOKEN-" + UUID.randomUUID();
        List<String> bad = List.of(
                tokens.token(customer, List.of("customer"), customer, Duration.ofMinutes(-5)),
                tokens.sign(TokenIssuer.claims("someone-else", TokenIssuer.AUDIENCE, customer, List.of("customer"),
                        customer, Duration.ofMinutes(5))),
                tokens.sign(TokenIssuer.claims(TokenIssuer.ISSUER, "another-api", customer, List.of("customer"),
                        customer, Duration.ofMinutes(5))),
                unsigned(customer),
                "not-a-jwt");
        for (String token : bad) {
            ApiCallers.withToken(token).get("/orders").then().statusCode(401)
                    .contentType("application/problem+json")
                    .header("WWW-Authenticate", containsString("Bearer"))
                    .body("status", equalTo(401));
        }
        ApiCallers.anonymous().get("/orders").then().statusCode(401).contentType("application/problem+json")
                .header("WWW-Authenticate", containsString("Bearer realm=\"orderflow\""));
    }

    @Test
    void identifiersWithControlCharactersAreRefused() {
        given().contentType("application/json").body(body("C-\\u0000-NUL")).post("/orders").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("customerId"))
                .body("errors[0].message", containsString("control characters"));
        given().contentType("application/json").body("{\"customerId\":\"C-1\",\"phone\":\"+819012345678\",\"items\":"
                + "[{\"sku\":\"SKU\\u001b[31m\",\"quantity\":1,\"unitPrice\":\"2.00\"}]}").post("/orders").then()
                .statusCode(400).body("errors[0].field", equalTo("items[0].sku"));
        given().queryParam("customerId", "C-\t1").get("/orders").then().statusCode(400)
                .body("errors[0].field", equalTo("customerId"));
    }

    /** A token whose header says {@code alg: none}, without signature: must never be accepted. */
    private static String unsigned(String customer) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = b64.encodeToString(TokenIssuer.claims(TokenIssuer.ISSUER, TokenIssuer.AUDIENCE, customer,
                List.of("customer"), customer, Duration.ofMinutes(5)).toJson().getBytes(StandardCharsets.UTF_8));
        return header + "." + payload + ".";
    }
}
