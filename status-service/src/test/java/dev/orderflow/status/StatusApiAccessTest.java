package dev.orderflow.status;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.rest.fuzz.AccessMatrix;
import dev.orderflow.rest.fuzz.ApiCallers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Who may call the status service, with real tokens: every operation × every kind of caller. A
 * customer reads its own orders' status (another customer's is 404, as if unknown); the listings,
 * the summary, the overview and the lag are for staff and services; the console is for its people only, each
 * action for its role.
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class StatusApiAccessTest {

    @Test
    void everyOperationAnswersEachKindOfCallerAsTheRulesSay() {
        String orderId = StatusClient.newOrderId();
        StatusBroker.send(StatusBroker.orderEvent(OrderEventType.CREATE, orderId, Instant.now()));
        StatusClient.awaitState(orderId, "PENDING");
        String owner = StatusBroker.orderEvent(OrderEventType.CREATE, orderId, Instant.now()).customerId();
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/lag").statusCode() == 200);

        String redrive = "{\"dlqMessageIds\":[\"NO-SUCH-ENTRY\"]}";
        String abandon = "{\"dlqMessageIds\":[\"NO-SUCH-ENTRY\"],\"comment\":\"gone\"}";
        // Statuses in AccessMatrix.Who order: none, forged, owner, other customer, inventory-manager, viewer,
        // operator, approver, service.
        new AccessMatrix(owner)
                .expect("GET", "/orders/{orderId}/status", who -> "/orders/" + orderId + "/status", null,
                        "401 401 200 404 403 200 200 200 200")
                .expect("GET", "/orders/{orderId}/status/history", who -> "/orders/" + orderId + "/status/history",
                        null, "401 401 200 404 403 200 200 200 200")
                .expect("GET", "/orders/status?state=PENDING", null, "401 401 403 403 403 200 200 200 200")
                .expect("GET", "/status/summary", null, "401 401 403 403 403 200 200 200 200")
                .expect("GET", "/status/overview", null, "401 401 403 403 403 200 200 200 200")
                .expect("GET", "/lag", null, "401 401 403 403 403 200 200 200 200")
                .expect("GET", "/admin/dlq", null, "401 401 403 403 403 200 200 200 403")
                .expect("GET", "/admin/dlq/{consumer}/messages", who -> "/admin/dlq/sms/messages", null,
                        "401 401 403 403 403 200 200 200 403")
                .expect("POST", "/admin/dlq/{consumer}/redrive-requests", who -> "/admin/dlq/sms/redrive-requests",
                        redrive, "401 401 403 403 403 403 404 403 403")
                .expect("POST", "/admin/dlq/{consumer}/abandon-requests", who -> "/admin/dlq/sms/abandon-requests",
                        abandon, "401 401 403 403 403 403 404 403 403")
                .expect("POST", "/admin/redrive-requests/{id}/approve", who -> "/admin/redrive-requests/987654321/approve",
                        null, "401 401 403 403 403 403 403 404 403")
                .expect("POST", "/admin/redrive-requests/{id}/reject", who -> "/admin/redrive-requests/987654321/reject",
                        null, "401 401 403 403 403 403 403 404 403")
                .expect("GET", "/admin/redrive-requests", null, "401 401 403 403 403 200 200 200 403")
                .expect("GET", "/admin/audit", null, "401 401 403 403 403 200 200 200 403")
                // A window the run refuses: the roles are checked, nothing is run.
                .expect("POST", "/admin/reconciliation?from=yesterday", null, "401 401 403 403 403 403 400 400 403")
                .expect("GET", "/admin/reconciliation", null, "401 401 403 403 403 200|404 200|404 200|404 403")
                // The dashboard's sign-in: open to all; who the caller is; the issuer's login and logout, browser
                // navigations that end on the page (303, followed) and that answer without credentials: the
                // login 404 while the code flow is off (as here; DashboardCodeFlowTest has it on), the logout 303.
                .expect("GET", "/dashboard/login-methods", null, "200 200 200 200 200 200 200 200 200")
                .expect("GET", "/dashboard/session", null, "401 401 200 200 200 200 200 200 200")
                .expect("GET", "/dashboard/login", null, "404 401 200 200 200 200 200 200 200")
                .expect("GET", "/dashboard/logout", null, "200 401 200 200 200 200 200 200 200")
                .verify();
    }

    @Test
    void aCustomerWaitsForItsOwnOrderOnlyAndLearnsNothingOfOthers() {
        String orderId = StatusClient.newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusClient.awaitState(orderId, "PENDING");
        String owner = StatusBroker.orderEvent(OrderEventType.CREATE, orderId, Instant.now()).customerId();
        StatusClient.allDone(orderId, OrderEventType.CREATE);

        ApiCallers.asCustomer(owner).queryParam("wait", "PT10S").get("/orders/{orderId}/status", orderId).then()
                .statusCode(200).body("state", equalTo("COMPLETED"));
        // Another customer's long poll ends as for an unknown order.
        ApiCallers.asCustomer(owner + "-other").queryParam("wait", "PT1S").get("/orders/{orderId}/status", orderId)
                .then().statusCode(404).contentType("application/problem+json")
                .body("type", equalTo(ApiCallers.asCustomer(owner + "-other").get("/orders/{orderId}/status",
                        "NEVER-PLACED").then().extract().jsonPath().getString("type")));
    }
}
