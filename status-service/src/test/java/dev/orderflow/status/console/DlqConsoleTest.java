package dev.orderflow.status.console;

import static dev.orderflow.rest.fuzz.ApiCallers.anonymous;
import static dev.orderflow.status.console.ConsoleClient.APPROVER;
import static dev.orderflow.status.console.ConsoleClient.OPERATOR;
import static dev.orderflow.status.console.ConsoleClient.OPERATOR_APPROVER;
import static dev.orderflow.status.console.ConsoleClient.VIEWER;
import static dev.orderflow.status.console.ConsoleClient.as;
import static dev.orderflow.status.console.ConsoleClient.awaitEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.rest.fuzz.ApiCallers;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.status.StatusBroker;
import dev.orderflow.status.StatusClient;
import dev.orderflow.status.StatusDatabase;
import dev.orderflow.status.StatusTopics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * The DLQ console against the real in-process RocketMQ broker (Dev Services) and the real MariaDB:
 * dead letters are written to {@code %DLQ%<group>} as the connector writes them, re-driven through
 * the authenticated API, and the re-driven message is received by a plain consumer of that group
 * (and not by a consumer of another group of order_topic).
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class DlqConsoleTest {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Duration ARRIVAL = Duration.ofSeconds(60);

    static String newOrderId() {
        return "DLQ" + Long.toString(System.currentTimeMillis(), 36).toUpperCase() + "-" + SEQUENCE.incrementAndGet();
    }

    private static String key(String orderId) {
        return OrderMessaging.messageKey(orderId, OrderEventType.CREATE);
    }

    private static JsonPath request(String user, String consumer, String body) {
        return as(user).contentType(ContentType.JSON).body(body)
                .post("/admin/dlq/{consumer}/redrive-requests", consumer)
                .then().statusCode(201).extract().jsonPath();
    }

    @Test
    void theConsoleNeedsATokenOfItsPeopleAndEachActionItsRole() {
        // Every operation × every kind of caller: StatusApiAccessTest. Here the console's people.
        anonymous().get("/admin/dlq").then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", containsString("Bearer realm=\"orderflow\""))
                .body("status", equalTo(401));
        ApiCallers.withToken(ConsoleClient.token(OPERATOR) + "x").get("/admin/dlq").then().statusCode(401)
                .contentType("application/problem+json");
        for (String user : List.of(VIEWER, OPERATOR, OPERATOR_APPROVER, APPROVER)) {
            as(user).get("/admin/dlq").then().statusCode(200);
            as(user).get("/admin/audit").then().statusCode(200);
            as(user).get("/admin/redrive-requests").then().statusCode(200);
        }
        // A viewer cannot request, an operator cannot approve or reject, an approver cannot request.
        for (String user : List.of(VIEWER, APPROVER)) {
            as(user).contentType(ContentType.JSON).body("{\"dlqMessageIds\":[\"X\"]}")
                    .post("/admin/dlq/inventory/redrive-requests").then().statusCode(403)
                    .contentType("application/problem+json").body("status", equalTo(403));
        }
        as(OPERATOR).post("/admin/redrive-requests/1/approve").then().statusCode(403);
        as(VIEWER).post("/admin/redrive-requests/1/reject").then().statusCode(403);
        anonymous().get("/q/health/ready").then().statusCode(200);
        anonymous().get("/dashboard/").then().statusCode(200).contentType(containsString("text/html"));
    }

    @Test
    void anInventoryRedriveNeedsASecondPersonAndReachesInventoryGroupOnlyWithAFreshAttemptCount() {
        TopicProbe inventoryGroup = TopicProbe.ofGroup(OrderMessaging.INVENTORY_GROUP, OrderMessaging.TOPIC);
        TopicProbe otherGroup = TopicProbe.of(OrderMessaging.TOPIC);
        String orderId = newOrderId();
        StatusBroker.deadLetter(OrderMessaging.INVENTORY_GROUP, orderId, "system",
                "SQLTransientConnectionException: connection refused");

        Map<String, Object> entry = awaitEntry("inventory", key(orderId));
        assertThat(entry).containsEntry("orderId", orderId).containsEntry("eventType", "create")
                .containsEntry("failureClass", "system")
                .containsEntry("failureReason", "SQLTransientConnectionException: connection refused")
                .containsEntry("attempts", 17).containsEntry("alreadyConsumed", false);
        assertThat((String) entry.get("deadLetteredAt")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
        assertThat((String) entry.get("body")).contains(orderId);
        String dlqMessageId = (String) entry.get("dlqMessageId");

        JsonPath queues = as(VIEWER).get("/admin/dlq").then().statusCode(200).extract().jsonPath();
        assertThat(queues.getList("consumer")).containsExactly("inventory", "sms", "points");
        assertThat(queues.getString("find { it.consumer == 'inventory' }.group")).isEqualTo("inventory_group");
        assertThat(queues.getLong("find { it.consumer == 'inventory' }.depth")).isGreaterThanOrEqualTo(1);
        assertThat(queues.getBoolean("find { it.consumer == 'inventory' }.approvalRequired")).isTrue();
        assertThat(queues.getBoolean("find { it.consumer == 'points' }.approvalRequired")).isTrue();
        assertThat(queues.getBoolean("find { it.consumer == 'sms' }.approvalRequired")).isFalse();

        JsonPath requested = request(OPERATOR_APPROVER, "inventory",
                "{\"dlqMessageIds\":[\"" + dlqMessageId + "\"],\"comment\":\"database was down\"}");
        assertThat(requested.getList("$")).hasSize(1);
        assertThat(requested.getString("[0].status")).isEqualTo("PENDING_APPROVAL");
        assertThat(requested.getString("[0].requestedBy")).isEqualTo(OPERATOR_APPROVER);
        assertThat(requested.getString("[0].dlqMessageId")).isEqualTo(dlqMessageId);
        assertThat(requested.getString("[0].approvedBy")).isNull();
        assertThat(requested.getString("[0].sentMessageId")).isNull();
        long id = requested.getLong("[0].id");

        // Nothing is sent before the approval.
        as(OPERATOR).contentType(ContentType.JSON).body("{\"dlqMessageIds\":[\"" + dlqMessageId + "\"]}")
                .post("/admin/dlq/inventory/redrive-requests").then().statusCode(409)
                .contentType("application/problem+json");
        as(OPERATOR_APPROVER).post("/admin/redrive-requests/{id}/approve", id).then().statusCode(403)
                .contentType("application/problem+json").body("type", containsString("own-request"));
        as(VIEWER).queryParam("status", "PENDING_APPROVAL").get("/admin/redrive-requests").then().statusCode(200)
                .body("find { it.id == " + id + " }.status", equalTo("PENDING_APPROVAL"));

        as(APPROVER).post("/admin/redrive-requests/{id}/approve", id).then().statusCode(200)
                .body("status", equalTo("SENT"))
                .body("approvedBy", equalTo(APPROVER))
                .body("requestedBy", equalTo(OPERATOR_APPROVER));
        // A sent request is never sent again.
        as(APPROVER).post("/admin/redrive-requests/{id}/approve", id).then().statusCode(409);
        as(APPROVER).post("/admin/redrive-requests/{id}/reject", id).then().statusCode(409);

        await().atMost(ARRIVAL).untilAsserted(() -> assertThat(inventoryGroup.withKey(key(orderId)))
                .singleElement()
                .satisfies(received -> {
                    assertThat(received.reconsumeTimes()).isZero();
                    assertThat(received.property(RocketMQDeadLetters.REDRIVEN_FROM)).isEqualTo(dlqMessageId);
                    assertThat(received.body()).isEqualTo(entry.get("body"));
                }));
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> otherGroup.withKey(key(orderId)).isEmpty());

        JsonPath audit = as(VIEWER).queryParam("limit", 500).get("/admin/audit").then().statusCode(200)
                .extract().jsonPath();
        List<Map<String, Object>> rows = audit.getList("findAll { it.requestId == " + id + " }");
        assertThat(rows).extracting(r -> r.get("action") + " by " + r.get("actor"))
                .containsExactly("SEND by bert", "APPROVE by bert", "REQUEST by anna");
        assertThat(rows.get(0)).containsEntry("outcome", "SENT").containsEntry("dlqMessageId", dlqMessageId)
                .containsEntry("messageKey", key(orderId)).containsEntry("group", "inventory_group");
        assertThat(StatusDatabase.count("select count(*) from console_audit where request_id = ?", id)).isEqualTo(3);
        assertThat(StatusDatabase.count("select count(*) from console_redrive_request where id = ? and status = 'SENT'"
                + " and decided_by = 'bert' and sent_message_id is not null", id)).isEqualTo(1);
    }

    @Test
    void fixAndRedriveSendsTheCorrectedBodyAndTheAuditKeepsBoth() {
        TopicProbe pointsGroup = TopicProbe.ofGroup(OrderMessaging.POINTS_GROUP, OrderMessaging.TOPIC);
        String orderId = newOrderId();
        String broken = "{\"orderId\":\"" + orderId + "\",\"eventType\":\"create\",\"amount\":\"12,50\"}";
        StatusBroker.deadLetter(OrderMessaging.POINTS_GROUP, orderId, "format", "amount: not a decimal", broken);
        Map<String, Object> entry = awaitEntry("points", key(orderId));
        assertThat(entry).containsEntry("failureClass", "format").containsEntry("body", broken);
        String dlqMessageId = (String) entry.get("dlqMessageId");

        // The corrected body must still be an order event, and goes with exactly one entry.
        as(OPERATOR).contentType(ContentType.JSON)
                .body(Map.of("dlqMessageIds", List.of(dlqMessageId), "correctedBody", "{\"orderId\":\"x\"}"))
                .post("/admin/dlq/points/redrive-requests").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("correctedBody"));
        String corrected = OrderEventJson.toJson(StatusBroker.orderEvent(OrderEventType.CREATE, orderId, Instant.now()));
        as(OPERATOR).contentType(ContentType.JSON)
                .body(Map.of("dlqMessageIds", List.of(dlqMessageId, "ANOTHER"), "correctedBody", corrected))
                .post("/admin/dlq/points/redrive-requests").then().statusCode(400)
                .body("errors[0].field", equalTo("correctedBody"));
        as(OPERATOR).contentType(ContentType.JSON).body(Map.of("dlqMessageIds", List.of("NO-SUCH-ENTRY")))
                .post("/admin/dlq/points/redrive-requests").then().statusCode(404);
        as(OPERATOR).contentType(ContentType.JSON).body(Map.of("dlqMessageIds", List.of(dlqMessageId)))
                .post("/admin/dlq/nobody/redrive-requests").then().statusCode(404);

        // First request rejected, a second one with the fix approved.
        long rejected = as(OPERATOR).contentType(ContentType.JSON).body(Map.of("dlqMessageIds", List.of(dlqMessageId)))
                .post("/admin/dlq/points/redrive-requests").then().statusCode(201).extract().jsonPath().getLong("[0].id");
        as(APPROVER).queryParam("comment", "fix the amount first").post("/admin/redrive-requests/{id}/reject", rejected)
                .then().statusCode(200).body("status", equalTo("REJECTED")).body("rejectedBy", equalTo(APPROVER))
                .body("approvedBy", nullValue());

        long id = as(OPERATOR).contentType(ContentType.JSON)
                .body(Map.of("dlqMessageIds", List.of(dlqMessageId), "correctedBody", corrected, "comment", "amount fixed"))
                .post("/admin/dlq/points/redrive-requests").then().statusCode(201)
                .body("[0].status", equalTo("PENDING_APPROVAL"))
                .body("[0].originalBody", equalTo(broken))
                .body("[0].correctedBody", equalTo(corrected))
                .extract().jsonPath().getLong("[0].id");
        as(APPROVER).post("/admin/redrive-requests/{id}/approve", id).then().statusCode(200).body("status", equalTo("SENT"));

        await().atMost(ARRIVAL).untilAsserted(() -> assertThat(pointsGroup.withKey(key(orderId)))
                .singleElement()
                .satisfies(received -> {
                    assertThat(received.body()).isEqualTo(corrected);
                    assertThat(received.reconsumeTimes()).isZero();
                }));

        List<Map<String, Object>> rows = as(VIEWER).queryParam("limit", 500).get("/admin/audit").then().statusCode(200)
                .extract().jsonPath().getList("findAll { it.requestId == " + id + " }");
        assertThat(rows).extracting(r -> r.get("action")).containsExactly("SEND", "APPROVE", "REQUEST");
        assertThat(rows).allSatisfy(r -> assertThat(r).containsEntry("beforeBody", broken).containsEntry("afterBody", corrected));
        assertThat(StatusDatabase.count("select count(*) from console_audit where request_id = ? and action = 'REJECT'"
                + " and actor = 'bert' and detail = 'fix the amount first'", rejected)).isEqualTo(1);
    }

    @Test
    void anSmsRedriveIsSentWithoutApprovalAndTheListingSaysWhenTheKeyWasConsumed() {
        TopicProbe smsGroup = TopicProbe.ofGroup(OrderMessaging.SMS_GROUP, OrderMessaging.TOPIC);
        String orderId = newOrderId();
        StatusBroker.deadLetter(OrderMessaging.SMS_GROUP, orderId, "business", "unknown phone prefix");
        Map<String, Object> entry = awaitEntry("sms", key(orderId));
        assertThat(entry).containsEntry("alreadyConsumed", false).containsEntry("failureClass", "business");

        // The consumer's report reaches this service through the broker: the listing says so once it is recorded.
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(
                () -> assertThat(awaitEntry("sms", key(orderId))).containsEntry("alreadyConsumed", true));

        JsonPath sent = request(OPERATOR, "sms", "{\"dlqMessageIds\":[\"" + entry.get("dlqMessageId") + "\"]}");
        assertThat(sent.getString("[0].status")).isEqualTo("SENT");
        assertThat(sent.getString("[0].approvedBy")).isNull();
        assertThat(sent.getString("[0].sentMessageId")).isNotBlank();
        await().atMost(ARRIVAL).until(() -> smsGroup.withKey(key(orderId)).size() == 1);

        List<Map<String, Object>> rows = as(VIEWER).get("/admin/audit").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.requestId == " + sent.getLong("[0].id") + " }");
        assertThat(rows).extracting(r -> r.get("action") + " by " + r.get("actor") + " -> " + r.get("outcome"))
                .containsExactly("SEND by otto -> SENT", "REQUEST by otto -> PENDING_APPROVAL");
    }

    @Test
    void abandoningADeadLetteredCreateNeedsASecondPersonAndFailsTheOrderWithTheOperatorsReason() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.done(orderId, OrderEventType.CREATE, "points");
        StatusBroker.deadLetter(OrderMessaging.INVENTORY_GROUP, orderId, "system", "warehouse API keeps timing out");
        StatusClient.awaitState(orderId, "ATTENTION");
        String dlqMessageId = (String) awaitEntry("inventory", key(orderId)).get("dlqMessageId");

        abandon(OPERATOR, "inventory", Map.of("dlqMessageIds", List.of(dlqMessageId))).statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("comment"));
        abandon(OPERATOR, "inventory", Map.of("dlqMessageIds", List.of(dlqMessageId), "comment", "gone",
                "correctedBody", "{}")).statusCode(400).body("errors[0].field", equalTo("correctedBody"));
        abandon(OPERATOR, "inventory", Map.of("dlqMessageIds", List.of(dlqMessageId, "ANOTHER"), "comment", "gone"))
                .statusCode(400).body("errors[0].field", equalTo("dlqMessageIds"));
        abandon(VIEWER, "inventory", Map.of("dlqMessageIds", List.of(dlqMessageId), "comment", "gone")).statusCode(403);
        abandon(OPERATOR, "sms", Map.of("dlqMessageIds", List.of(dlqMessageId), "comment", "gone")).statusCode(404);

        String reason = "the supplier cannot deliver SKU-1";
        long id = abandon(OPERATOR_APPROVER, "inventory", Map.of("dlqMessageIds", List.of(dlqMessageId),
                "comment", reason)).statusCode(201)
                .body("action", equalTo("ABANDON"))
                .body("status", equalTo("PENDING_APPROVAL"))
                .body("messageKey", equalTo(key(orderId)))
                .extract().jsonPath().getLong("id");
        // Nothing happens before the approval; the entry can be neither re-driven nor abandoned twice.
        StatusClient.get(orderId).then().body("state", equalTo("ATTENTION"));
        as(OPERATOR).contentType(ContentType.JSON).body(Map.of("dlqMessageIds", List.of(dlqMessageId)))
                .post("/admin/dlq/inventory/redrive-requests").then().statusCode(409);
        abandon(OPERATOR, "inventory", Map.of("dlqMessageIds", List.of(dlqMessageId), "comment", reason))
                .statusCode(409);
        as(OPERATOR_APPROVER).post("/admin/redrive-requests/{id}/approve", id).then().statusCode(403)
                .body("type", containsString("own-request"));

        as(APPROVER).post("/admin/redrive-requests/{id}/approve", id).then().statusCode(200)
                .body("status", equalTo("ABANDONED"))
                .body("approvedBy", equalTo(APPROVER))
                .body("sentMessageId", nullValue());
        as(APPROVER).post("/admin/redrive-requests/{id}/approve", id).then().statusCode(409);

        JsonPath failed = StatusClient.awaitState(orderId, "FAILED");
        assertThat(failed.getString("failure.consumer")).isEqualTo("inventory");
        assertThat(failed.getString("failure.class")).isEqualTo("system");
        assertThat(failed.getString("failure.reason")).isEqualTo("abandoned by bert: " + reason);
        assertThat(failed.getMap("compensation")).containsExactly(Map.entry("inventory", "PENDING"),
                Map.entry("sms", "PENDING"), Map.entry("points", "PENDING"));
        assertThat(StatusClient.awaitOutcome(orderId, OrderOutcome.Outcome.FAILED).failure())
                .isEqualTo(new OrderFailure("inventory", "system", "abandoned by bert: " + reason));

        List<Map<String, Object>> rows = as(VIEWER).queryParam("limit", 500).get("/admin/audit").then()
                .statusCode(200).extract().jsonPath().getList("findAll { it.requestId == " + id + " }");
        assertThat(rows).extracting(r -> r.get("action") + " by " + r.get("actor") + " -> " + r.get("outcome"))
                .containsExactly("ABANDON by bert -> ABANDONED", "APPROVE by bert -> PENDING_APPROVAL",
                        "REQUEST by anna -> PENDING_APPROVAL");
    }

    @Test
    void onlyTheCreateOfAnOrderWaitingForAnOperatorCanBeAbandoned() {
        // An order the status service has not seen opened: nothing to abandon yet.
        String unopened = newOrderId();
        StatusBroker.deadLetter(OrderMessaging.POINTS_GROUP, unopened, "system", "timeout");
        String unopenedEntry = (String) awaitEntry("points", key(unopened)).get("dlqMessageId");
        abandon(OPERATOR, "points", Map.of("dlqMessageIds", List.of(unopenedEntry), "comment", "gone"))
                .statusCode(409).body("detail", containsString("not known"));

        // Requested while waiting, then a re-drive of another copy got through: the approval abandons nothing.
        String recovered = newOrderId();
        StatusBroker.sendCreate(recovered);
        StatusBroker.done(recovered, OrderEventType.CREATE, "inventory");
        StatusBroker.done(recovered, OrderEventType.CREATE, "sms");
        StatusBroker.deadLetter(OrderMessaging.POINTS_GROUP, recovered, "system", "timeout");
        StatusClient.awaitState(recovered, "ATTENTION");
        String entry = (String) awaitEntry("points", key(recovered)).get("dlqMessageId");
        long id = abandon(OPERATOR, "points", Map.of("dlqMessageIds", List.of(entry), "comment", "points are down"))
                .statusCode(201).extract().jsonPath().getLong("id");
        StatusBroker.done(recovered, OrderEventType.CREATE, "points");
        StatusClient.awaitState(recovered, "COMPLETED");
        as(APPROVER).post("/admin/redrive-requests/{id}/approve", id).then().statusCode(200)
                .body("status", equalTo("FAILED"))
                .body("failure", containsString("not abandoned: order " + recovered + " is COMPLETED"));
        StatusClient.get(recovered).then().body("state", equalTo("COMPLETED")).body("failure", nullValue());
        // ... and a COMPLETED order is refused at the request already.
        abandon(OPERATOR, "points", Map.of("dlqMessageIds", List.of(entry), "comment", "points are down"))
                .statusCode(409).body("detail", containsString("is COMPLETED"));
        assertThat(StatusClient.outcomes(recovered)).extracting(OrderOutcome::outcome)
                .containsExactly(OrderOutcome.Outcome.COMPLETED);
    }

    private static ValidatableResponse abandon(String user, String consumer, Map<String, Object> body) {
        return as(user).contentType(ContentType.JSON).body(body).post("/admin/dlq/{consumer}/abandon-requests", consumer)
                .then();
    }

    @Test
    void badQueryParametersAre400Problems() {
        as(VIEWER).queryParam("max", 0).get("/admin/dlq/inventory/messages").then().statusCode(400)
                .body("errors[0].field", equalTo("max"));
        as(VIEWER).queryParam("max", "many").get("/admin/dlq/inventory/messages").then().statusCode(400);
        as(VIEWER).queryParam("status", "DONE").get("/admin/redrive-requests").then().statusCode(400)
                .body("errors[0].field", equalTo("status"));
        as(VIEWER).queryParam("limit", 100000).get("/admin/audit").then().statusCode(400);
        as(VIEWER).get("/admin/dlq/nobody/messages").then().statusCode(404).contentType("application/problem+json");
        as(APPROVER).post("/admin/redrive-requests/{id}/approve", 987654321).then().statusCode(404);
    }
}
