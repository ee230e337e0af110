package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import dev.orderflow.rocketmq.runtime.RocketMQSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.health.HealthReport;

/**
 * {@code failure-strategy} other than the default (dead-letter-queue, {@link FailurePathTest}):
 * {@code ignore} commits what failed for good and goes on, {@code fail} stops the channel with the
 * message uncommitted. Each runs a {@link RocketMQSource} of its own on one queue (so the order of
 * delivery is the order of sending) against the broker of the extension's Dev Services.
 */
@QuarkusTest
class FailureStrategyTest {

    private static final Duration DELIVERY = Duration.ofSeconds(60);

    /** One delivery as the application saw it. */
    private record Delivery(String key, int reconsumeTimes) {
    }

    @Test
    void ignoreDropsAPermanentFailureAndALastAttemptWithoutADeadLetterAndGoesOn() throws Exception {
        String topic = RawRocketMQ.unique("it_ignore");
        String group = topic + "_group";
        String channel = topic + "-in";
        RawRocketMQ.sendToQueueZero(topic, List.of("poison", "flaky", "after"));
        RocketMQSource source = new RocketMQSource(RawRocketMQ.incoming(channel, Map.of("topic", topic, "consumer-group", group,
                "consume-from", "first", "failure-strategy", "ignore", "max-reconsume-times", "1", "consume-threads", "1")));
        List<Delivery> deliveries = new CopyOnWriteArrayList<>();
        try {
            source.stream().subscribe().with(message -> {
                IncomingRocketMQMetadata metadata = message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow();
                deliveries.add(new Delivery(metadata.key(), metadata.reconsumeTimes()));
                switch (metadata.key()) {
                    case "poison" -> message.nack(new RocketMQPermanentFailure("format", "unreadable"));
                    case "flaky" -> message.nack(new IllegalStateException("still down"));
                    default -> message.ack();
                }
            });

            // The permanent failure once; the transient one on its first attempt and its one redelivery.
            await().atMost(DELIVERY).untilAsserted(() -> assertThat(deliveries).containsExactlyInAnyOrder(
                    new Delivery("poison", 0), new Delivery("flaky", 0), new Delivery("after", 0),
                    new Delivery("flaky", 1)));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(
                    () -> assertThat(ignored(channel)).isEqualTo(2.0));
            // Committed: neither is delivered again.
            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7))
                    .untilAsserted(() -> assertThat(deliveries).hasSize(4));
            assertThat(alive(source)).isTrue();
        } finally {
            source.close();
        }
        assertThat(topicExists(RocketMQDeadLetters.dlqTopic(group))).as("a DLQ of " + group).isFalse();
    }

    @Test
    void failStopsTheChannelWithTheMessageUncommittedForTheGroupsNextConsumer() throws Exception {
        String topic = RawRocketMQ.unique("it_fail");
        String group = topic + "_group";
        String channel = topic + "-in";
        RawRocketMQ.sendToQueueZero(topic, List.of("before", "poison", "after"));
        RocketMQSource source = new RocketMQSource(RawRocketMQ.incoming(channel, Map.of("topic", topic, "consumer-group", group,
                "consume-from", "first", "failure-strategy", "fail", "consume-threads", "1", "shutdown-timeout", "1000")));
        List<String> handedOver = new CopyOnWriteArrayList<>();
        try {
            source.stream().subscribe().with(message -> {
                String key = message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow().key();
                handedOver.add(key);
                if (key.equals("poison")) {
                    message.nack(new RocketMQPermanentFailure("format", "unreadable"));
                } else {
                    message.ack();
                }
            });

            await().atMost(DELIVERY).until(() -> !alive(source));
            assertThat(message(liveness(source))).contains("failure-strategy=fail", "poison", "format: unreadable");
            assertThat(readiness(source).isOk()).isFalse();
            // Stopped: nothing after the failed message is handed over, and the failed one is not retried.
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(handedOver).containsExactly("before", "poison"));
        } finally {
            source.close();
        }

        // The group's next consumer gets the failed message and the one after it, as first attempts
        // from the original queue; nothing went to a DLQ.
        Map<String, MessageExt> redelivered = RawRocketMQ.receiveAsGroup(group, topic, List.of("poison", "after"),
                DELIVERY);
        for (String key : List.of("poison", "after")) {
            assertThat(redelivered.get(key).getReconsumeTimes()).as("attempts spent on %s", key).isZero();
            assertThat(redelivered.get(key).getTopic()).isEqualTo(topic);
        }
        assertThat(topicExists(RocketMQDeadLetters.dlqTopic(group))).as("a DLQ of " + group).isFalse();
    }

    @Test
    void anUnknownStrategyIsRefusedNamingTheChoices() {
        assertThatThrownBy(() -> new RocketMQSource(RawRocketMQ.incoming("it-strategy-typo", Map.of("topic", "it_strategy_typo",
                "failure-strategy", "dead-letter"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Channel it-strategy-typo: failure-strategy must be one of 'dead-letter-queue', 'ignore', "
                        + "'fail', not 'dead-letter'");
    }

    private static double ignored(String channel) {
        Counter counter = Metrics.globalRegistry.find("rocketmq.messages.ignored").tag("channel", channel).counter();
        return counter == null ? 0 : counter.count();
    }

    private static boolean alive(RocketMQSource source) {
        return liveness(source).isOk();
    }

    private static HealthReport liveness(RocketMQSource source) {
        HealthReport.HealthReportBuilder builder = HealthReport.builder();
        source.reportLiveness(builder);
        return builder.build();
    }

    private static HealthReport readiness(RocketMQSource source) {
        HealthReport.HealthReportBuilder builder = HealthReport.builder();
        source.reportReadiness(builder);
        return builder.build();
    }

    private static String message(HealthReport report) {
        List<String> messages = new ArrayList<>();
        report.getChannels().forEach(c -> messages.add(c.getMessage()));
        return String.join("; ", messages);
    }

    private static boolean topicExists(String topic) throws Exception {
        DefaultMQAdminExt admin = RawRocketMQ.admin();
        try {
            return admin.fetchAllTopicList().getTopicList().contains(topic);
        } finally {
            admin.shutdown();
        }
    }
}
