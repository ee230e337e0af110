package dev.orderflow.rocketmq.it;

import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.ACK;
import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.NACK;
import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.PERMANENT;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The channel meters at {@code /q/metrics} (Prometheus): sent, consumed, acked, retried and
 * dead-lettered, each tagged with its channel, count what happened. Measured as differences
 * around one scenario on channels of its own. Real broker from the extension's Dev Services.
 */
@QuarkusTest
class MetricsTest {

    @Inject
    FailurePathChannels channels;

    @Test
    void channelCountersFollowSendsAcksRetriesAndDeadLetters() throws Exception {
        String run = RawRocketMQ.unique("metrics");
        String ok = run + "-ok";
        String retry = run + "-retry";
        String dead = run + "-dead";
        channels.script("metrics-in", (k, attempt) -> k.equals(dead) ? PERMANENT
                : k.equals(retry) && attempt == 1 ? NACK : ACK);
        Map<String, Double> before = Map.of(
                "sent", counter("rocketmq_messages_sent_total", "conn-out"),
                "consumed", counter("rocketmq_messages_consumed_total", "metrics-in"),
                "answered", counter("rocketmq_consume_duration_seconds_count", "metrics-in"),
                "acked", counter("rocketmq_messages_acked_total", "metrics-in"),
                "retried", counter("rocketmq_messages_retried_total", "metrics-in"),
                "dead", counter("rocketmq_messages_dead_lettered_total", "metrics-in"));

        CompletableFuture.allOf(
                channels.send("it_metrics", ok, ok, null),
                channels.send("it_metrics", retry, retry, null),
                channels.send("it_metrics", dead, dead, null)).get(20, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(channels.deliveries("metrics-in", retry)).hasSize(2);
            assertThat(channels.deliveries("metrics-in", ok)).hasSize(1);
            assertThat(channels.deliveries("metrics-in", dead)).hasSize(1);
        });

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String metrics = scrape();
            assertThat(value(metrics, "rocketmq_messages_sent_total", "conn-out") - before.get("sent")).isEqualTo(3.0);
            assertThat(value(metrics, "rocketmq_messages_consumed_total", "metrics-in") - before.get("consumed"))
                    .isEqualTo(4.0);
            // Every delivery was answered (ack, nack, permanent failure), so each one was timed.
            assertThat(value(metrics, "rocketmq_consume_duration_seconds_count", "metrics-in") - before.get("answered"))
                    .isEqualTo(4.0);
            assertThat(value(metrics, "rocketmq_messages_acked_total", "metrics-in") - before.get("acked"))
                    .isEqualTo(2.0);
            assertThat(value(metrics, "rocketmq_messages_retried_total", "metrics-in") - before.get("retried"))
                    .isEqualTo(1.0);
            assertThat(value(metrics, "rocketmq_messages_dead_lettered_total", "metrics-in") - before.get("dead"))
                    .isEqualTo(1.0);
            assertThat(value(metrics, "rocketmq_send_latency_seconds_count", "conn-out")).isGreaterThanOrEqualTo(3.0);
            assertThat(value(metrics, "rocketmq_send_failures_total", "conn-out")).isZero();
        });
    }

    private static double counter(String name, String channel) {
        return value(scrape(), name, channel);
    }

    private static String scrape() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** The sample of {@code name} tagged {@code channel="<channel>"}; fails when there is none. */
    private static double value(String metrics, String name, String channel) {
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)}\\s+(\\S+)$", Pattern.MULTILINE)
                .matcher(metrics);
        while (m.find()) {
            if (m.group(1).contains("channel=\"" + channel + "\"")) {
                return Double.parseDouble(m.group(2));
            }
        }
        throw new AssertionError("No " + name + "{channel=\"" + channel + "\"} at /q/metrics");
    }
}
