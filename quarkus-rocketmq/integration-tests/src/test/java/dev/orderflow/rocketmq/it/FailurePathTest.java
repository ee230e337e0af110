package dev.orderflow.rocketmq.it;

import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.ACK;
import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.NACK;
import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.PERMANENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.rocketmq.it.FailurePathChannels.Delivery;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Transient failure → redelivery, retries exhausted → DLQ, permanent failure → DLQ at once.
 * Real broker started in-process by the extension's Dev Services (delay table of seconds, client
 * rebalance every 2 s); the DLQ is read with a raw RocketMQ pull consumer.
 */
@QuarkusTest
class FailurePathTest {

    private static final Duration DELIVERY = Duration.ofSeconds(60);

    @Inject
    FailurePathChannels channels;

    @Test
    void transientNackIsRedeliveredWithIncrementedReconsumeTimesAndFinishedOnceAcked() throws Exception {
        String key = RawRocketMQ.unique("redeliver");
        channels.script("redeliver-in", (k, attempt) -> k.equals(key) && attempt == 1 ? NACK : ACK);

        channels.send("it_redeliver", key, "body of " + key, null).get(10, TimeUnit.SECONDS);

        await().atMost(DELIVERY).untilAsserted(
                () -> assertThat(channels.deliveries("redeliver-in", key)).hasSize(2));
        List<Delivery> deliveries = channels.deliveries("redeliver-in", key);
        assertThat(deliveries).extracting(Delivery::reconsumeTimes).containsExactly(0, 1);
        assertThat(deliveries).extracting(Delivery::answer).containsExactly(NACK, ACK);
        assertThat(deliveries).extracting(Delivery::payload).containsOnly("body of " + key);
        // The application sees the original topic, not %RETRY%<group>.
        assertThat(deliveries).extracting(Delivery::topic).containsOnly("it_redeliver");
        // Acknowledged: never delivered again.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).untilAsserted(
                () -> assertThat(channels.deliveries("redeliver-in", key)).hasSize(2));
    }

    @Test
    void messageFailingEveryTimeIsAttemptedMaxReconsumePlusOneTimesThenDeadLetteredAsSystem() throws Exception {
        String key = RawRocketMQ.unique("exhaust");
        channels.script("exhaust-in", (k, attempt) -> k.equals(key) ? NACK : ACK);

        channels.send("it_exhaust", key, "body of " + key, null).get(10, TimeUnit.SECONDS);

        // max-reconsume-times=2: the first delivery and two redeliveries.
        List<MessageExt> dead = RawRocketMQ.readDeadLetters("it_exhaust_group", m -> key.equals(m.getKeys()), 1,
                DELIVERY);
        assertThat(dead).hasSize(1);
        MessageExt letter = dead.get(0);
        assertThat(RawRocketMQ.body(letter)).isEqualTo("body of " + key);
        assertThat(letter.getUserProperty(RocketMQDeadLetters.FAILURE_CLASS)).isEqualTo("system");
        assertThat(letter.getUserProperty(RocketMQDeadLetters.FAILURE_REASON)).contains("scripted transient failure");
        assertThat(letter.getUserProperty(RocketMQDeadLetters.ATTEMPTS)).isEqualTo("3");
        assertThat(letter.getProperty(RocketMQDeadLetters.ORIGIN_TOPIC)).isEqualTo("it_exhaust");

        assertThat(channels.deliveries("exhaust-in", key)).extracting(Delivery::reconsumeTimes)
                .containsExactly(0, 1, 2);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).untilAsserted(
                () -> assertThat(channels.deliveries("exhaust-in", key)).hasSize(3));
    }

    @Test
    void permanentFailureIsDeadLetteredAfterOneAttemptWhileTheMessagesBehindItAreProcessed() throws Exception {
        String run = RawRocketMQ.unique("perm");
        String poison = "poison-" + run;
        List<String> behind = IntStream.range(0, 5).mapToObj(i -> "good-" + run + "-" + i).toList();
        channels.script("permanent-in", (k, attempt) -> k.startsWith("poison-") ? PERMANENT : ACK);

        // One sharding key: the poison message and the ones behind it share a queue.
        CompletableFuture<?>[] sends = new CompletableFuture<?>[behind.size() + 1];
        sends[0] = channels.send("it_permanent", poison, poison, run);
        for (int i = 0; i < behind.size(); i++) {
            sends[i + 1] = channels.send("it_permanent", behind.get(i), behind.get(i), run);
        }
        CompletableFuture.allOf(sends).get(20, TimeUnit.SECONDS);

        await().atMost(DELIVERY).untilAsserted(() -> behind.forEach(
                key -> assertThat(channels.deliveries("permanent-in", key)).hasSize(1)));
        assertThat(channels.deliveries("permanent-in", behind.get(0)).get(0).queueOffset())
                .isGreaterThan(channels.deliveries("permanent-in", poison).get(0).queueOffset());

        List<MessageExt> dead = RawRocketMQ.readDeadLetters("it_permanent_group", m -> poison.equals(m.getKeys()), 1,
                DELIVERY);
        assertThat(dead).hasSize(1);
        MessageExt letter = dead.get(0);
        assertThat(RawRocketMQ.body(letter)).isEqualTo(poison);
        assertThat(letter.getKeys()).isEqualTo(poison);
        assertThat(letter.getUserProperty(RocketMQDeadLetters.FAILURE_CLASS)).isEqualTo("format");
        assertThat(letter.getUserProperty(RocketMQDeadLetters.FAILURE_REASON)).isEqualTo("unparseable body: " + poison);
        assertThat(letter.getUserProperty(RocketMQDeadLetters.ATTEMPTS)).isEqualTo("1");
        assertThat(letter.getProperty(RocketMQDeadLetters.ORIGIN_TOPIC)).isEqualTo("it_permanent");

        // Exactly one attempt, also after the DLQ write: it is never redelivered.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).untilAsserted(
                () -> assertThat(channels.deliveries("permanent-in", poison)).hasSize(1));
        assertThat(channels.deliveries("permanent-in", poison).get(0).reconsumeTimes()).isZero();
        assertThat(dead).noneMatch(m -> behind.contains(m.getKeys()));
    }
}
