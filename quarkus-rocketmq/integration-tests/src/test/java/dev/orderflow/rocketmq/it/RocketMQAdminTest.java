package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.GroupLag;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.QueueLag;
import dev.orderflow.rocketmq.RocketMQAdmin;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Lag of a stalled consumer group, topic depth, DLQ browse and re-drive to one group only. Real broker
 * started in-process by the extension's Dev Services.
 */
@QuarkusTest
class RocketMQAdminTest {

    private static final String LAG_GROUP = "it_lag_group";
    private static final String TOPIC_BOUND_GROUP = "it_lag_topic_bound_group";
    private static final String DLQ_GROUP = "it_dlq_group";
    private static final String DLQ_TOPIC = "it_dlq";

    @Inject
    RocketMQAdmin admin;

    @Inject
    LagChannels lagChannels;

    @Inject
    DeadLetterChannels deadLetterChannels;

    @Test
    void stalledConsumerGroupIsReportedBehindUntilItCatchesUp() throws Exception {
        int messages = 10;
        int consumedBefore = lagChannels.consumed();
        lagChannels.stall();
        try {
            for (int i = 0; i < messages; i++) {
                send(lagChannels.emitter(), Message.of("lag-" + i));
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                GroupLag lag = admin.lag(LAG_GROUP);
                assertThat(lag.messagesBehind()).isGreaterThanOrEqualTo(messages);
                assertThat(lag.oldestUnconsumedAgeMillis()).isPositive();
                assertThat(lag.oldestUnconsumedAgeMillisByTopic()).hasEntrySatisfying("it_lag",
                        age -> assertThat(age).isPositive().isLessThanOrEqualTo(lag.oldestUnconsumedAgeMillis()));
                assertThat(lag.consumersOnline()).isEqualTo(1);
                assertThat(lag.queues().stream().filter(q -> q.topic().equals("it_lag")).mapToLong(QueueLag::behind).sum())
                        .isGreaterThanOrEqualTo(messages);
            });
            assertThat(lagChannels.consumed()).isEqualTo(consumedBefore);
        } finally {
            lagChannels.release();
        }
        // Consumers commit offsets every 5 s: give the broker's view time to catch up.
        await().atMost(Duration.ofSeconds(45)).untilAsserted(() -> {
            GroupLag lag = admin.lag(LAG_GROUP);
            assertThat(lag.messagesBehind()).isZero();
            assertThat(lag.oldestUnconsumedAgeMillis()).isZero();
            assertThat(lag.oldestUnconsumedAgeMillisByTopic()).isEmpty();
        });
        assertThat(lagChannels.consumed()).isEqualTo(consumedBefore + messages);
    }

    @Test
    void aStalledGroupHoldsAtMostItsPullThresholdInTheClientAndTheRestInTheBroker() throws Exception {
        int messages = 400;
        int consumedBefore = lagChannels.consumed();
        int topicBoundBefore = lagChannels.consumedTopicBound();
        lagChannels.stall();
        try {
            for (int i = 0; i < messages; i++) {
                send(lagChannels.emitter(), Message.of("held-" + i));
            }
            long queues = admin.lag(LAG_GROUP).queues().stream().filter(q -> q.topic().equals("it_lag")).count();
            assertThat(queues).as("it_lag's queues: with one, a bound per channel and one per queue look alike")
                    .isGreaterThan(1);
            // lag-in: pull-threshold-for-queue 10, pulls of 10: a queue pulls again while it holds 10 or
            // fewer, so it holds at most 20; with RocketMQ's default (1000) all 400 would be pulled.
            // lag-topic-bound-in: pull-threshold-for-topic 20, pulls of 1: each queue read holds at most
            // its share of 20 plus one, so it_lag's queues at most 20 + queues; 20 per queue would
            // allow 21 per queue.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(cachedMessages("lag-in")).isPositive();
                assertThat(cachedMessages("lag-topic-bound-in")).isPositive();
            });
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(cachedMessages("lag-in")).isPositive().isLessThanOrEqualTo(queues * 20);
                assertThat(cachedMessages("lag-topic-bound-in")).isPositive().isLessThanOrEqualTo(20 + queues);
                assertThat(admin.lag(LAG_GROUP).messagesBehind()).isGreaterThanOrEqualTo(messages);
                assertThat(admin.lag(TOPIC_BOUND_GROUP).messagesBehind()).isGreaterThanOrEqualTo(messages);
            });
            assertThat(lagChannels.consumed()).isEqualTo(consumedBefore);
            assertThat(lagChannels.consumedTopicBound()).isEqualTo(topicBoundBefore);
        } finally {
            lagChannels.release();
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(lagChannels.consumed()).isEqualTo(consumedBefore + messages);
            assertThat(lagChannels.consumedTopicBound()).isEqualTo(topicBoundBefore + messages);
            assertThat(cachedMessages("lag-in")).isZero();
            assertThat(cachedMessages("lag-topic-bound-in")).isZero();
            assertThat(admin.lag(LAG_GROUP).messagesBehind()).isZero();
            assertThat(admin.lag(TOPIC_BOUND_GROUP).messagesBehind()).isZero();
        });
    }

    /** The channel's {@code rocketmq.messages.cached} gauge: messages pulled into the client, not yet consumed. */
    private static double cachedMessages(String channel) {
        return Metrics.globalRegistry.get("rocketmq.messages.cached").tag("channel", channel).gauge().value();
    }

    @Test
    void deadLetterIsBrowsableAndRedrivenToItsOwnGroupOnly() throws Exception {
        String key = "dlq-" + UUID.randomUUID();
        send(deadLetterChannels.emitter(), Message.of("poison " + key).addMetadata(OutgoingRocketMQMetadata.builder()
                .withKeys(key).withProperty("origin", "web").build()));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(deadLetterChannels.dlqGroupWithKey(key)).hasSize(1);
            assertThat(deadLetterChannels.otherGroupWithKey(key)).hasSize(1);
        });

        AtomicReference<DeadLetter> found = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<DeadLetter> letters = admin.browseDeadLetters(DLQ_GROUP, 100);
            assertThat(letters).filteredOn(l -> key.equals(l.key())).singleElement().satisfies(found::set);
        });
        DeadLetter letter = found.get();
        assertThat(letter.failureClass()).isEqualTo("format");
        assertThat(letter.failureReason()).isEqualTo("unparseable body: poison " + key);
        assertThat(letter.attempts()).isEqualTo(1);
        assertThat(letter.originTopic()).isEqualTo(DLQ_TOPIC);
        assertThat(letter.originMessageId()).isNotBlank();
        assertThat(letter.keys()).containsExactly(key);
        assertThat(letter.tag()).isEqualTo("create");
        assertThat(letter.bodyAsString()).isEqualTo("poison " + key);
        assertThat(letter.properties()).containsEntry("origin", "web");
        assertThat(letter.msgId()).isNotBlank();
        assertThat(letter.storeTimestamp()).isPositive();
        assertThat(admin.lag(DLQ_GROUP).deadLetters()).isGreaterThanOrEqualTo(1);

        String redrivenId = admin.redrive(DLQ_GROUP, letter, ("fixed " + key).getBytes(StandardCharsets.UTF_8));
        assertThat(redrivenId).isNotBlank();

        // A retry topic that is new to the consumer is found at its next route refresh (up to 30 s).
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(deadLetterChannels.dlqGroupWithKey(key))
                .filteredOn(r -> r.payload().equals("fixed " + key))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.reconsumeTimes()).isZero();
                    assertThat(r.topic()).isEqualTo(DLQ_TOPIC);
                    assertThat(r.tag()).isEqualTo("create");
                    assertThat(r.keys()).containsExactly(key);
                    assertThat(r.properties()).containsEntry("origin", "web")
                            .containsEntry(RocketMQDeadLetters.REDRIVEN_FROM, letter.msgId());
                    assertThat(r.properties().keySet())
                            .noneMatch(name -> name.startsWith(RocketMQDeadLetters.FAILURE_PROPERTY_PREFIX));
                }));
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7))
                .until(() -> deadLetterChannels.otherGroupWithKey(key).size() == 1);
        assertThat(deadLetterChannels.otherGroupWithKey(key)).singleElement()
                .satisfies(r -> assertThat(r.payload()).isEqualTo("poison " + key));
    }

    @Test
    void groupNobodyConsumesHasNoConsumersOnlineAndNothingBehind() {
        GroupLag lag = admin.lag(RawRocketMQ.unique("it_nobody_group"));
        assertThat(lag.consumersOnline()).isZero();
        assertThat(lag.messagesBehind()).isZero();
        assertThat(lag.queues()).isEmpty();
        assertThat(lag.oldestUnconsumedAgeMillisByTopic()).isEmpty();
    }

    @Test
    void topicDepthCountsStoredMessagesWhetherConsumedOrNot() throws Exception {
        String topic = RawRocketMQ.unique("it_depth");
        assertThat(admin.topicDepth(topic)).isZero();
        // Exists on every broker, empty unless a half message was checked back too often.
        assertThat(admin.topicDepth(RocketMQAdmin.HALF_MESSAGES_PARKED_TOPIC)).isZero();
        DefaultMQProducer producer = RawRocketMQ.producer();
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(producer.send(new org.apache.rocketmq.common.message.Message(topic,
                        ("depth-" + i).getBytes(StandardCharsets.UTF_8))).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }
        } finally {
            producer.shutdown();
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(admin.topicDepth(topic)).isEqualTo(3));
    }

    /** Sends through an emitter and waits until the broker stored the message. */
    private static void send(Emitter<String> emitter, Message<String> message) throws Exception {
        CompletableFuture<Void> stored = new CompletableFuture<>();
        emitter.send(message
                .withAck(() -> {
                    stored.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(t -> {
                    stored.completeExceptionally(t);
                    return CompletableFuture.completedFuture(null);
                }));
        stored.get(10, TimeUnit.SECONDS);
    }
}
