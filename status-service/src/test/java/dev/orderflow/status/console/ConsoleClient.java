package dev.orderflow.status.console;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.orderflow.rest.fuzz.ApiCallers;
import io.restassured.specification.RequestSpecification;

/** The admin API as the console's people call it, each with a token of the test issuer carrying their roles. */
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
        return ApiCallers.withToken(token(user));
    }

    /** The bearer token of {@code user}, with that user's roles. */
    static String token(String user) {
        return ApiCallers.TOKENS.user(user, roles(user));
    }

    private static String[] roles(String user) {
        return switch (user) {
            case VIEWER -> new String[] { "viewer" };
            case OPERATOR -> new String[] { "viewer", "operator" };
            case OPERATOR_APPROVER -> new String[] { "viewer", "operator", "approver" };
            case APPROVER -> new String[] { "viewer", "approver" };
            default -> throw new IllegalArgumentException("no such test user: " + user);
        };
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
