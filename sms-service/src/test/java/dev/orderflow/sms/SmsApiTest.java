package dev.orderflow.sms;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.event;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static dev.orderflow.sms.SmsTestEvents.sendCreateOfACompletedOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.rest.fuzz.AccessMatrix;
import dev.orderflow.rest.fuzz.ApiCallers;
import dev.orderflow.sms.FakeSmsGateway.Answer;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * {@code GET /sms?orderId=}: REST Assured against the running app; texts produced by real events
 * through the in-process broker and the real MariaDB, sent to the fake SMS provider.
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SmsApiTest {

    private static final String ISO_MILLIS = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3})?Z";

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    @Test
    void listsTheTextsOfAnOrderOldestFirst() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));
        awaitStatus(orderId + ":create", "SENT");
        OrderTopicSender.send(event(OrderEventType.CANCEL, orderId, phone));
        awaitStatus(orderId + ":cancel", "SENT");

        Response response = given().queryParam("orderId", orderId).get("/sms");

        response.then().statusCode(200).contentType("application/json");
        List<Map<String, Object>> texts = response.jsonPath().getList("$");
        assertThat(texts).hasSize(2);
        assertThat(texts).allSatisfy(text -> assertThat(text.keySet())
                .containsExactlyInAnyOrder("orderId", "eventType", "phone", "text", "status", "attempts", "sentAt"));
        assertThat(texts.get(0)).containsEntry("orderId", orderId).containsEntry("eventType", "create")
                .containsEntry("phone", phone).containsEntry("status", "SENT").containsEntry("attempts", 1)
                .containsEntry("text", "Order " + orderId + " confirmed: 2 items, total 25.00. Thank you!");
        assertThat(texts.get(1)).containsEntry("eventType", "cancel").containsEntry("status", "SENT")
                .containsEntry("text", "Order " + orderId + " has been cancelled.");
        assertThat(texts).extracting(text -> (String) text.get("sentAt")).allMatch(sentAt -> sentAt.matches(ISO_MILLIS));
    }

    @Test
    void showsAFailedTextWithoutSentAt() throws Exception {
        String orderId = newOrderId();
        gateway.script(orderId + ":create", Answer.badRequest());
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, newPhone()));
        awaitStatus(orderId + ":create", "FAILED");

        given().queryParam("orderId", orderId).get("/sms").then().statusCode(200)
                .body("size()", equalTo(1))
                .body("[0].status", equalTo("FAILED"))
                .body("[0].attempts", equalTo(1))
                .body("[0].sentAt", equalTo(null));
    }

    @Test
    void anUnknownOrderHasNoTexts() {
        given().queryParam("orderId", newOrderId()).get("/sms").then().statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void orderIdIsRequired() {
        given().get("/sms").then().statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("https://orderflow.dev/problems/invalid-request"))
                .body("title", equalTo("Invalid request"))
                .body("status", equalTo(400))
                .body("detail", equalTo("Invalid orderId: is required"))
                .body("errors[0].field", equalTo("orderId"))
                .body("errors[0].message", equalTo("is required"))
                .body(not(containsString("Exception")));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "   " })
    void aBlankOrderIdIsRefused(String orderId) {
        given().queryParam("orderId", orderId).get("/sms").then().statusCode(400)
                .contentType("application/problem+json")
                .body("detail", equalTo("Invalid orderId: is required"));
    }

    @Test
    void anOrderIdLongerThanTheColumnIsRefused() {
        given().queryParam("orderId", "X".repeat(65)).get("/sms").then().statusCode(400)
                .contentType("application/problem+json")
                .body("detail", equalTo("Invalid orderId: must be at most 64 characters"));
    }

    @Test
    void otherMethodsAreProblems() {
        given().contentType("application/json").body("{}").post("/sms").then().statusCode(405)
                .contentType("application/problem+json")
                .body("status", equalTo(405));
    }

    @Test
    void healthMetricsAndOpenApiAreServed() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/metrics").then().statusCode(200).body(containsString("sms_sends_total"));
        given().get("/q/openapi").then().statusCode(200).body(containsString("/sms"));
    }

    @Test
    void aCustomerReadsTheTextsOfItsOwnOrdersOnlyAndEveryCallerAnswersAsTheRulesSay() {
        String orderId = newOrderId();
        OrderTopicSender.send(event(OrderEventType.CREATE, orderId, newPhone()));
        awaitStatus(orderId + ":create", "HELD");
        String owner = "C-" + orderId;
        // Statuses in AccessMatrix.Who order: none, forged, owner, other customer, inventory-manager, viewer,
        // operator, approver, service.
        AccessMatrix matrix = new AccessMatrix(owner)
                .expect("GET", "/sms?orderId=" + orderId, null, "401 401 200 200 403 200 200 200 200")
                // The effect ledger: staff and services only.
                .expect("POST", "/ledger/effects", "[\"" + orderId + "\"]", "401 401 403 403 403 200 200 200 200")
                .expect("GET", "/ledger/effects/order-ids?from=2002-01-01T00:00:00Z&to=2002-01-02T00:00:00Z&limit=10",
                        null, "401 401 403 403 403 200 200 200 200");
        matrix.verify();

        ApiCallers.asCustomer(owner).queryParam("orderId", orderId).get("/sms").then().statusCode(200)
                .body("size()", equalTo(1));
        // Another customer learns nothing: the order looks unknown.
        ApiCallers.asCustomer(matrix.otherCustomer()).queryParam("orderId", orderId).get("/sms").then()
                .statusCode(200).body("size()", equalTo(0));
    }
}
