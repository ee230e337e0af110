package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
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

import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.runtime.RocketMQSource;
import io.quarkus.test.junit.QuarkusTest;


/**
 * Closing a source while the application holds messages loses none and acknowledges none it did
 * not finish. Runs a {@link RocketMQSource} of its own (not an application channel, so closing it
 * leaves the application alone) against the broker from the extension's Dev Services, then takes
 * over the consumer group with a raw RocketMQ push consumer and looks at what the broker
 * delivers again.
 */
@QuarkusTest
class GracefulShutdownTest {

    private static final int MESSAGES = 20;

    /**
     * Twenty messages on one queue. The application acknowledges the first ten at once except the
     * sixth, which it holds, and holds everything from the eleventh on. Concurrently, two consumer
     * threads get the sixth and the eleventh stuck and the rest acknowledged (nine); orderly, the
     * queue stops at the sixth (five acknowledged). Then the source is closed.
     */
    @ParameterizedTest
    @ValueSource(strings = { "concurrently", "orderly" })
    void closingWithMessagesInFlightGivesBackEverythingUnfinishedWithoutSpendingAnAttempt(String mode)
            throws Exception {
        String topic = "it_shutdown_" + mode;
        String group = "it_shutdown_" + mode + "_group";
        int ackedBeforeHold = mode.equals("orderly") ? 5 : 9;
        List<String> keys = IntStream.range(0, MESSAGES).mapToObj(i -> mode + "-shutdown-" + i).toList();
        String blocked = keys.get(5);
        RawRocketMQ.sendToQueueZero(topic, keys);

        RocketMQSource source = new RocketMQSource(RawRocketMQ.incoming("it-shutdown-" + mode, Map.of(
                "topic", topic,
                "consumer-group", group,
                "consume-mode", mode,
                "consume-from", "first",
                "consume-threads", "2",
                "shutdown-timeout", "1500")));
        Set<String> ackedBeforeClose = ConcurrentHashMap.newKeySet();
        Set<String> handedOver = ConcurrentHashMap.newKeySet();
        CountDownLatch blockedReceived = new CountDownLatch(1);
        CountDownLatch finishLate = new CountDownLatch(1);
        ExecutorService application = Executors.newFixedThreadPool(4);
        try {
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
            await().atMost(Duration.ofSeconds(30)).until(() -> ackedBeforeClose.size() == ackedBeforeHold);
            int held = mode.equals("orderly") ? 1 : 2;
            await().atMost(Duration.ofSeconds(30)).until(() -> handedOver.size() == ackedBeforeHold + held);

            long closeStarted = System.nanoTime();
            source.close();
            long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStarted);
            // Nothing was handed over once closing began.
            assertThat(handedOver).hasSize(ackedBeforeHold + held);
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
        Set<String> notAcked = keys.stream().filter(k -> !ackedBeforeClose.contains(k)).collect(Collectors.toSet());
        Map<String, MessageExt> redelivered = RawRocketMQ.receiveAsGroup(group, topic, notAcked, Duration.ofSeconds(60));
        assertThat(notAcked).contains(blocked).hasSize(MESSAGES - ackedBeforeHold);
        for (String key : notAcked) {
            MessageExt message = redelivered.get(key);
            assertThat(message.getReconsumeTimes()).as("attempts spent on %s", key).isZero();
            assertThat(message.getTopic()).as("topic %s came from", key).isEqualTo(topic);
            assertThat(message.getProperty(MessageConst.PROPERTY_RETRY_TOPIC)).as("%s via the retry topic", key)
                    .isNull();
        }
        // Nothing sent is missing.
        Set<String> seen = new HashSet<>(ackedBeforeClose);
        seen.addAll(redelivered.keySet());
        assertThat(seen).containsExactlyInAnyOrderElementsOf(keys);
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
