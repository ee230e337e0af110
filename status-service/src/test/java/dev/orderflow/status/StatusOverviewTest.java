package dev.orderflow.status;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.OrderEventType;
import io.restassured.path.json.JsonPath;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** {@code GET /status/overview}: orders created in the last 5 minutes and hour per current state, and completions. */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class StatusOverviewTest {

    private static final List<String> STATES = List.of("PENDING", "ATTENTION", "COMPLETED", "FAILED", "CANCELLED");

    @Test
    void anOrderCreatedAndCompletedNowCountsInBothWindowsAndAnOldOneInNeither() {
        JsonPath before = overview();
        String recent = StatusClient.newOrderId();
        StatusBroker.sendCreate(recent);
        StatusClient.allDone(recent, OrderEventType.CREATE);
        // Created two hours ago, still pending: in no window.
        String old = StatusClient.newOrderId();
        StatusBroker.send(StatusBroker.orderEvent(OrderEventType.CREATE, old, Instant.now().minus(Duration.ofHours(2))));
        StatusClient.awaitState(recent, "COMPLETED");
        StatusClient.awaitState(old, "PENDING");
        JsonPath after = overview();

        assertThat(after.getList("windows.window")).containsExactly("PT5M", "PT1H");
        Instant at = Instant.parse(after.getString("at"));
        assertThat(Instant.parse(after.getString("windows[0].since"))).isEqualTo(at.minus(Duration.ofMinutes(5)));
        assertThat(Instant.parse(after.getString("windows[1].since"))).isEqualTo(at.minus(Duration.ofHours(1)));
        for (int w = 0; w < 2; w++) {
            Map<String, Integer> counts = after.getMap("windows[" + w + "].counts");
            assertThat(counts).containsOnlyKeys(STATES);
            assertThat(counts.values().stream().mapToLong(Integer::longValue).sum()).isEqualTo(after.getLong("windows[" + w + "].created"));
            // Other tests may add orders meanwhile: at least this one more.
            assertThat(counts.get("COMPLETED")).isGreaterThanOrEqualTo(before.getInt("windows[" + w + "].counts.COMPLETED") + 1);
            assertThat(after.getLong("windows[" + w + "].completed")).isGreaterThanOrEqualTo(before.getLong("windows[" + w + "].completed") + 1);
        }
        for (String state : STATES) {
            assertThat(after.getInt("windows[1].counts." + state)).as(state)
                    .isGreaterThanOrEqualTo(after.getInt("windows[0].counts." + state));
        }
        // The old pending order counts in the summary, not in the windows.
        assertThat(after.getLong("windows[1].counts.PENDING")).isLessThan(summaryCount("PENDING"));
    }

    private static JsonPath overview() {
        return given().get("/status/overview").then().statusCode(200).extract().jsonPath();
    }

    private static long summaryCount(String state) {
        return given().get("/status/summary").then().statusCode(200).extract().jsonPath().getLong("counts." + state);
    }
}
