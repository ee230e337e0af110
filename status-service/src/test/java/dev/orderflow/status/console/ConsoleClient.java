package dev.orderflow.status.console;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.restassured.specification.RequestSpecification;

/** The admin API as the test users of %test (password {@code <user>-secret}) call it. */
final class ConsoleClient {

    /** viewer only. */
    static final String VIEWER = "vera";
    /** viewer, operator. */
    static final String OPERATOR = "otto";
    /** viewer, operator, approver. */
    static final String OPERATOR_APPROVER = "anna";
    /** viewer, approver. */
    static final String APPROVER = "bert";

    private ConsoleClient() {
    }

    static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, user + "-secret");
    }

    /** Waits until the consumer's DLQ listing shows the entry with that key, and returns it. */
    static Map<String, Object> awaitEntry(String consumer, String messageKey) {
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() -> {
            List<Map<String, Object>> entries = as(VIEWER).queryParam("max", 500)
                    .get("/admin/dlq/{consumer}/messages", consumer)
                    .then().statusCode(200).extract().jsonPath().getList("$");
            return entries.stream().filter(e -> messageKey.equals(e.get("messageKey"))).findFirst().orElse(null);
        }, entry -> entry != null);
    }
}
