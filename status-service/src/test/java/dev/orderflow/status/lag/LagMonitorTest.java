package dev.orderflow.status.lag;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.status.StatusBroker;
import dev.orderflow.status.StatusTopics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Consumer lag as GET /lag and /q/metrics show it, for a group the test stalls with a plain
 * RocketMQ push consumer (status_test_lag_group, in the %test monitored set) and for the
 * service's own groups. Real in-process broker (Dev Services) and MariaDB.
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class LagMonitorTest {

    private static final String GROUP = "status_test_lag_group";
    /** Monitored in %test, and no test ever consumes as it (other tests of this app use the real groups). */
    private static final String IDLE_GROUP = "status_test_idle_group";
    private static final String TOPIC = "status_test_lag_topic";
    private static final int MESSAGES = 5;
    private static final String ISO_MILLIS = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    @Test
    void everyMonitoredGroupIsListedWithHistoryOldestFirst() {
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/lag").statusCode() == 200
                && given().get("/lag").jsonPath().getList("groups[0].history").size() >= 3);
        JsonPath lag = given().get("/lag").then().statusCode(200).contentType("application/json").extract().jsonPath();
        assertThat(lag.getString("measuredAt")).matches(ISO_MILLIS);
        assertThat(lag.getMap("$")).doesNotContainKey("stale");
        assertThat(lag.getList("groups.group", String.class)).containsExactly("inventory_group", "sms_group",
                "points_group", "status_group", "status_report_group", "status_dlq_inventory", "status_dlq_sms",
                "status_dlq_points", GROUP, IDLE_GROUP);
        // This service's own order-events consumer is connected.
        assertThat(lag.getInt("groups.find { it.group == 'status_group' }.consumersOnline")).isEqualTo(1);
        // A group nobody consumes as: nothing online, nothing behind.
        Map<String, Object> idle = lag.getMap("groups.find { it.group == '" + IDLE_GROUP + "' }");
        assertThat(idle).containsEntry("consumersOnline", 0).containsEntry("behind", 0)
                .containsEntry("oldestUnconsumedAgeSeconds", null).containsKeys("retryDepth", "dlqDepth", "topics");
        assertThat(lag.getMap("groups.find { it.group == 'inventory_group' }"))
                .containsKeys("behind", "oldestUnconsumedAgeSeconds", "retryDepth", "dlqDepth", "consumersOnline", "topics", "history");
        List<String> at = lag.getList("groups.find { it.group == 'status_group' }.history.at", String.class);
        assertThat(at).hasSizeGreaterThanOrEqualTo(3).allMatch(a -> a.matches(ISO_MILLIS));
        assertThat(at).isSortedAccordingTo((a, b) -> Instant.parse(a).compareTo(Instant.parse(b)));
        assertThat(at.get(at.size() - 1)).isEqualTo(lag.getString("measuredAt"));
    }

    @Test
    void aStalledGroupShowsMessagesBehindAndTheirAgeUntilItCatchesUp() throws Exception {
        String nameServer = ConfigProvider.getConfig().getValue(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, String.class);
        DefaultMQProducer producer = new DefaultMQProducer("status_test_lag_sender");
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName("status-test-lag-sender-" + System.nanoTime());
        producer.start();
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger consumed = new AtomicInteger();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(GROUP);
        try {
            producer.createTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC, TOPIC, 1, Map.of());
            consumer.setNamesrvAddr(nameServer);
            consumer.setInstanceName("status-test-lag-consumer-" + System.nanoTime());
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.setConsumeThreadMin(1);
            consumer.setConsumeThreadMax(1);
            consumer.subscribe(TOPIC, "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                try {
                    // Stalled, like a consumer stuck on a slow dependency; bounded so the test never hangs.
                    if (!release.await(120, TimeUnit.SECONDS)) {
                        return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
                consumed.addAndGet(messages.size());
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            for (int i = 0; i < MESSAGES; i++) {
                assertThat(producer.send(new Message(TOPIC, ("lag-" + i).getBytes(StandardCharsets.UTF_8)))
                        .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }

            await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> {
                JsonPath lag = given().get("/lag").then().statusCode(200).extract().jsonPath();
                String group = "groups.find { it.group == '" + GROUP + "' }";
                assertThat(lag.getLong(group + ".behind")).isEqualTo(MESSAGES);
                assertThat(lag.getInt(group + ".consumersOnline")).isEqualTo(1);
                assertThat(lag.getDouble(group + ".oldestUnconsumedAgeSeconds")).isPositive();
                assertThat(lag.getLong(group + ".topics.find { it.topic == '" + TOPIC + "' }.behind"))
                        .isEqualTo(MESSAGES);
                assertThat(lag.getDouble(group + ".topics.find { it.topic == '" + TOPIC
                        + "' }.oldestUnconsumedAgeSeconds")).isPositive();
                assertThat(lag.getLong(group + ".history[-1].behind")).isEqualTo(MESSAGES);
                String metrics = given().get("/q/metrics").asString();
                assertThat(metrics).contains("orderflow_lag_messages{group=\"" + GROUP + "\",topic=\"" + TOPIC
                        + "\"} " + MESSAGES + ".0");
                assertThat(metrics).contains("orderflow_consumers_online{group=\"" + GROUP + "\"} 1.0");
                assertThat(metrics).containsPattern("orderflow_lag_oldest_age_seconds\\{group=\"" + GROUP
                        + "\",topic=\"" + TOPIC + "\"} [1-9]");
            });
            assertThat(consumed.get()).isZero();

            release.countDown();
            // Consumers commit offsets every 5 s: the broker's view follows within that.
            await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> {
                JsonPath lag = given().get("/lag").jsonPath();
                String group = "groups.find { it.group == '" + GROUP + "' }";
                assertThat(lag.getLong(group + ".behind")).isZero();
                assertThat(lag.getString(group + ".oldestUnconsumedAgeSeconds")).isNull();
                assertThat(given().get("/q/metrics").asString()).contains("orderflow_lag_messages{group=\"" + GROUP
                        + "\",topic=\"" + TOPIC + "\"} 0.0");
            });
            assertThat(consumed.get()).isEqualTo(MESSAGES);
            JsonPath lag = given().get("/lag").jsonPath();
            List<Integer> behindOverTime = lag.getList("groups.find { it.group == '" + GROUP + "' }.history.behind",
                    Integer.class);
            assertThat(behindOverTime).contains(MESSAGES).endsWith(0);
        } finally {
            release.countDown();
            consumer.shutdown();
            producer.shutdown();
        }
    }

    @Test
    void aNewDeadLetterRaisesTheGroupsDlqDepth() {
        String group = "groups.find { it.group == 'sms_group' }";
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/lag").statusCode() == 200);
        long before = given().get("/lag").jsonPath().getLong(group + ".dlqDepth");

        String orderId = "LAG" + Long.toString(System.nanoTime(), 36).toUpperCase();
        StatusBroker.deadLetter("sms_group", orderId, "system", "retries exhausted");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonPath lag = given().get("/lag").jsonPath();
            assertThat(lag.getLong(group + ".dlqDepth")).isEqualTo(before + 1);
            assertThat(lag.getLong(group + ".history[-1].dlqDepth")).isEqualTo(before + 1);
            String metrics = given().get("/q/metrics").asString();
            assertThat(metrics).contains("orderflow_dlq_depth_messages{group=\"sms_group\"} " + (before + 1) + ".0");
            assertThat(metrics).containsPattern("orderflow_retry_depth_messages\\{group=\"sms_group\"} \\d");
            // No transactional sends in this test: nothing can be parked after too many check-backs.
            assertThat(metrics).contains("orderflow_half_messages_parked 0.0");
        });
    }
}
