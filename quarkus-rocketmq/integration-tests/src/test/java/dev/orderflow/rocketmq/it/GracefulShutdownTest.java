package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.runtime.RocketMQConnectorIncomingConfiguration;
import dev.orderflow.rocketmq.runtime.RocketMQSource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;


/**
 * Closing a source while the application holds messages loses none and acknowledges none it did
 * not finish. Runs a {@link RocketMQSource} of its own (not an application channel, so closing it
 * leaves the application alone) against the broker from the extension's Dev Services, then takes
 * over the consumer group with a raw RocketMQ push consumer and looks at what the broker
 * delivers again.
 */
@QuarkusTest
class GracefulShutdownTest {

    private static final String TOPIC = "it_shutdown";
    private static final String GROUP = "it_shutdown_group";
    private static final int MESSAGES = 20;

    @Test
    void closingWithMessagesInFlightGivesBackEverythingUnfinishedWithoutSpendingAnAttempt() throws Exception {
        List<String> keys = IntStream.range(0, MESSAGES).mapToObj(i -> "shutdown-" + i).toList();
        String blocked = keys.get(5);
        sendAllToQueueZero(keys);

        RocketMQSource source = new RocketMQSource(new RocketMQConnectorIncomingConfiguration(config(Map.of(
                "topic", TOPIC,
                "consumer-group", GROUP,
                "consume-from", "first",
                "consume-threads", "2",
                "shutdown-timeout", "1500"))));
        Set<String> ackedBeforeClose = ConcurrentHashMap.newKeySet();
        Set<String> handedOver = ConcurrentHashMap.newKeySet();
        CountDownLatch blockedReceived = new CountDownLatch(1);
        CountDownLatch finishLate = new CountDownLatch(1);
        ExecutorService application = Executors.newFixedThreadPool(4);
        try {
            // The application: acknowledges the first ten messages at once except one, which it
            // holds; holds everything from the eleventh on.
            source.stream().subscribe().with(message -> application.submit(() -> {
                String key = message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow().key();
                handedOver.add(key);
                int index = keys.indexOf(key);
                if (index < 10 && !key.equals(blocked)) {
                    message.ack().toCompletableFuture().join();
                    ackedBeforeClose.add(key);
                    return;
                }
                if (key.equals(blocked)) {
                    blockedReceived.countDown();
                }
                hold(finishLate);
                // Finished after the source closed: this acknowledgement must not count.
                message.ack().toCompletableFuture().join();
            }));

            assertThat(blockedReceived.await(60, TimeUnit.SECONDS)).as("%s handed over", blocked).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> ackedBeforeClose.size() == 9);

            long closeStarted = System.nanoTime();
            source.close();
            long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStarted);
            finishLate.countDown();
            // Bounded by shutdown-timeout (1.5 s) plus the client's own shutdown.
            assertThat(closeMillis).isLessThan(15_000);
        } finally {
            finishLate.countDown();
            source.close();
            application.shutdown();
        }

        // The group's next consumer gets every message the application did not acknowledge,
        // from the original queue (offset not committed) and as a first attempt (not sent to the
        // retry topic), the held one included.
        Map<String, MessageExt> redelivered = new ConcurrentHashMap<>();
        DefaultMQPushConsumer next = new DefaultMQPushConsumer(GROUP);
        next.setNamesrvAddr(RawRocketMQ.nameServer());
        next.setInstanceName(RawRocketMQ.unique("it-shutdown-next"));
        next.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        next.subscribe(TOPIC, "*");
        next.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            msgs.forEach(m -> redelivered.putIfAbsent(m.getKeys(), m));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        next.start();
        try {
            Set<String> notAcked = keys.stream().filter(k -> !ackedBeforeClose.contains(k)).collect(Collectors.toSet());
            await().atMost(Duration.ofSeconds(60)).untilAsserted(
                    () -> assertThat(redelivered.keySet()).containsAll(notAcked));
            assertThat(notAcked).contains(blocked).hasSize(MESSAGES - 9);
            for (String key : notAcked) {
                MessageExt message = redelivered.get(key);
                assertThat(message.getReconsumeTimes()).as("attempts spent on %s", key).isZero();
                assertThat(message.getTopic()).as("topic %s came from", key).isEqualTo(TOPIC);
                assertThat(message.getProperty(MessageConst.PROPERTY_RETRY_TOPIC)).as("%s via the retry topic", key)
                        .isNull();
            }
            // Nothing sent is missing.
            Set<String> seen = new HashSet<>(ackedBeforeClose);
            seen.addAll(redelivered.keySet());
            assertThat(seen).containsExactlyInAnyOrderElementsOf(keys);
        } finally {
            next.shutdown();
        }
    }

    private static void sendAllToQueueZero(List<String> keys) throws Exception {
        DefaultMQProducer producer = RawRocketMQ.producer();
        try {
            for (String key : keys) {
                Message message = new Message(TOPIC, key.getBytes(StandardCharsets.UTF_8));
                message.setKeys(key);
                assertThat(producer.send(message, (queues, msg, arg) -> queues.get(0), null).getSendStatus())
                        .isEqualTo(SendStatus.SEND_OK);
            }
        } finally {
            producer.shutdown();
        }
    }

    /** The channel configuration a connector would pass: attributes plus channel name and name server. */
    private static Config config(Map<String, String> attributes) {
        Map<String, String> all = new HashMap<>(attributes);
        all.put(ConnectorFactory.CHANNEL_NAME_ATTRIBUTE, "it-shutdown");
        all.put(ConnectorFactory.CONNECTOR_ATTRIBUTE, RocketMQConfigKeys.CONNECTOR_NAME);
        all.put("name-server", RawRocketMQ.nameServer());
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(all, "it-shutdown", 100)).build();
    }

    private static void hold(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the held message");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while holding a message", e);
        }
    }
}
