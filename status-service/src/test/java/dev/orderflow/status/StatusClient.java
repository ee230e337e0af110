package dev.orderflow.status;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.order.events.OrderOutcomeJson;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/** The status API and order_outcome_topic as the tests read them. */
public final class StatusClient {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Duration ARRIVAL = Duration.ofSeconds(30);

    private StatusClient() {
    }

    /** An order id no earlier run used. */
    public static String newOrderId() {
        return "ST" + Long.toString(System.currentTimeMillis(), 36).toUpperCase() + "-" + SEQUENCE.incrementAndGet();
    }

    public static Response get(String orderId) {
        return given().get("/orders/{orderId}/status", orderId);
    }

    /** Waits until the order shows {@code state}, and returns its body. */
    public static JsonPath awaitState(String orderId, String state) {
        await().atMost(ARRIVAL).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Response response = get(orderId);
                    return response.statusCode() == 200 && state.equals(response.jsonPath().getString("state"));
                });
        return get(orderId).jsonPath();
    }

    /** Every required consumer reports DONE for the order's event. */
    public static void allDone(String orderId, OrderEventType type) {
        ConsumerReports.CONSUMERS.forEach(c -> StatusBroker.done(orderId, type, c));
    }

    /** Waits for the order's {@code outcome} on order_outcome_topic, and returns it. */
    public static OrderOutcome awaitOutcome(String orderId, OrderOutcome.Outcome outcome) {
        await("the " + outcome + " outcome of " + orderId).atMost(ARRIVAL)
                .until(() -> outcomes(orderId).stream().anyMatch(o -> o.outcome() == outcome));
        return outcomes(orderId).stream().filter(o -> o.outcome() == outcome).findFirst().orElseThrow();
    }

    /** The outcomes of {@code orderId} on order_outcome_topic, KEYS and tag checked against the body. */
    public static List<OrderOutcome> outcomes(String orderId) {
        return TopicProbe.of(OrderOutcome.TOPIC).withKeyPrefix(orderId + ":").stream().map(received -> {
            OrderOutcome outcome = OrderOutcomeJson.parse(received.body());
            assertThat(received.keys()).isEqualTo(outcome.messageKey());
            assertThat(received.tags()).isEqualTo(outcome.tag());
            return outcome;
        }).toList();
    }
}
