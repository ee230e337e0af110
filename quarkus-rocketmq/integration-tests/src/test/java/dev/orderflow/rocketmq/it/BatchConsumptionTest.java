package dev.orderflow.rocketmq.it;

import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.ACK;
import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.NACK;
import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.PERMANENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.rocketmq.it.FailurePathChannels.Batch;
import dev.orderflow.rocketmq.it.FailurePathChannels.Delivery;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Batch mode ({@code batch=true}): the application gets {@code Message<List<String>>} with one
 * metadata entry per element; acknowledging the batch acknowledges every element, nacking it
 * redelivers every element. Messages are written with a raw producer as one RocketMQ batch, so
 * that a single pull returns several of them. Real broker from the extension's Dev Services.
 */
@QuarkusTest
class BatchConsumptionTest {

    @Inject
    FailurePathChannels channels;

    @Test
    void batchesCarryPerElementMetadataAndAckOrNackCoversEveryElement() throws Exception {
        String run = RawRocketMQ.unique("batch");
        List<String> acked = IntStream.range(0, 10).mapToObj(i -> run + "-a" + i).toList();
        List<String> nackedOnce = IntStream.range(0, 5).mapToObj(i -> run + "-n" + i).toList();
        channels.script("batch-in", (k, attempt) -> nackedOnce.contains(k) && attempt == 1 ? NACK : ACK);

        DistributionSummary batchSizes = Metrics.globalRegistry.get("rocketmq.batch.size").tag("channel", "batch-in")
                .summary();
        long batchesBefore = batchSizes.count();
        Timer consumeDurations = Metrics.globalRegistry.get("rocketmq.consume.duration").tag("channel", "batch-in").timer();
        long answeredBefore = consumeDurations.count();
        double messagesBefore = batchSizes.totalAmount();
        DefaultMQProducer producer = RawRocketMQ.producer();
        try {
            sendAsOneBatch(producer, acked);

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> acked.forEach(
                    key -> assertThat(channels.deliveries("batch-in", key)).hasSize(1)));
            List<Batch> batches = channels.batches().stream()
                    .filter(b -> b.payloads().stream().anyMatch(acked::contains)).toList();
            assertThat(batches).as("batches of %s", acked).anySatisfy(b -> assertThat(b.payloads()).hasSizeGreaterThan(1));
            assertThat(batches).allSatisfy(b -> {
                assertThat(b.payloads()).hasSizeLessThanOrEqualTo(8);
                assertThat(b.metadata()).extracting(IncomingRocketMQMetadata::key).containsExactlyElementsOf(b.payloads());
                assertThat(b.metadata()).extracting(IncomingRocketMQMetadata::topic).containsOnly("it_batch");
                assertThat(b.metadata()).extracting(IncomingRocketMQMetadata::reconsumeTimes).containsOnly(0);
            });
            assertThat(batches.stream().mapToInt(b -> b.payloads().size()).sum()).isEqualTo(acked.size());
            // The batch size summary counts the same batches the application got, and their messages.
            assertThat(batchSizes.count() - batchesBefore).as("batches").isEqualTo(batches.size());
            assertThat(batchSizes.totalAmount() - messagesBefore).as("messages in them").isEqualTo(acked.size());
            // The application's time is timed once per batch, when it answers.
            assertThat(consumeDurations.count() - answeredBefore).as("batches answered").isEqualTo(batches.size());

            sendAsOneBatch(producer, nackedOnce);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> nackedOnce.forEach(
                    key -> assertThat(channels.deliveries("batch-in", key)).extracting(Delivery::reconsumeTimes)
                            .containsExactly(0, 1)));
        } finally {
            producer.shutdown();
        }

        // Acknowledged means committed: the group is not behind on any queue (retry queue included),
        // and nothing is delivered again.
        DefaultMQAdminExt admin = RawRocketMQ.admin();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(
                    () -> assertThat(admin.examineConsumeStats("it_batch_group").computeTotalDiff()).isZero());
        } finally {
            admin.shutdown();
        }
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            acked.forEach(key -> assertThat(channels.deliveries("batch-in", key)).hasSize(1));
            nackedOnce.forEach(key -> assertThat(channels.deliveries("batch-in", key)).hasSize(2));
        });
    }

    /**
     * A {@link dev.orderflow.rocketmq.RocketMQBatchFailure} settles each failed element on its own:
     * the permanent one goes to the DLQ after one attempt, the transient one is redelivered alone,
     * the always-failing one is dead-lettered when its attempts run out, and the elements that
     * succeeded are never delivered again.
     */
    @Test
    void aBatchFailureSettlesEachFailedElementAlone() throws Exception {
        String run = RawRocketMQ.unique("elements");
        List<String> acked = IntStream.range(0, 4).mapToObj(i -> run + "-a" + i).toList();
        String poison = run + "-poison";
        String nackedOnce = run + "-once";
        String alwaysFailing = run + "-always";
        channels.script("batch-elements-in", (k, attempt) -> k.equals(poison) ? PERMANENT
                : k.equals(nackedOnce) && attempt == 1 || k.equals(alwaysFailing) ? NACK : ACK);
        List<String> all = new java.util.ArrayList<>(acked);
        all.addAll(List.of(poison, nackedOnce, alwaysFailing));

        DefaultMQProducer producer = RawRocketMQ.producer();
        try {
            sendAsOneBatch(producer, "it_batch_elements", all);
        } finally {
            producer.shutdown();
        }

        // max-reconsume-times=2: the always-failing element gets three attempts, then the DLQ.
        List<MessageExt> dead = RawRocketMQ.readDeadLetters("it_batch_elements_group",
                m -> m.getKeys() != null && m.getKeys().startsWith(run), 2, Duration.ofSeconds(90));
        assertThat(dead).extracting(MessageExt::getKeys).containsExactlyInAnyOrder(poison, alwaysFailing);
        assertThat(dead).filteredOn(m -> m.getKeys().equals(poison)).singleElement().satisfies(m -> {
            assertThat(m.getUserProperty(RocketMQDeadLetters.FAILURE_CLASS)).isEqualTo("business");
            assertThat(m.getUserProperty(RocketMQDeadLetters.ATTEMPTS)).isEqualTo("1");
        });
        assertThat(dead).filteredOn(m -> m.getKeys().equals(alwaysFailing)).singleElement().satisfies(m -> {
            assertThat(m.getUserProperty(RocketMQDeadLetters.FAILURE_CLASS)).isEqualTo("system");
            assertThat(m.getUserProperty(RocketMQDeadLetters.ATTEMPTS)).isEqualTo("3");
        });
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            acked.forEach(key -> assertThat(channels.deliveries("batch-elements-in", key)).hasSize(1));
            assertThat(channels.deliveries("batch-elements-in", poison)).hasSize(1);
            assertThat(channels.deliveries("batch-elements-in", nackedOnce)).extracting(Delivery::reconsumeTimes)
                    .containsExactly(0, 1);
            assertThat(channels.deliveries("batch-elements-in", alwaysFailing)).extracting(Delivery::reconsumeTimes)
                    .containsExactly(0, 1, 2);
        });
    }

    /**
     * {@code batch-concurrency=1} with eight consumer threads: messages sent one by one arrive as
     * many small deliveries while the application works on a batch; they are combined into the next
     * batch (so one batch holds messages of several queues, which no single fetch can bring), the
     * application never holds two batches, and the failed elements are still settled alone.
     */
    @Test
    void waitingDeliveriesAreCombinedIntoOneBatchAndSettledElementByElement() throws Exception {
        String run = RawRocketMQ.unique("combined");
        List<String> acked = IntStream.range(0, 40).mapToObj(i -> run + "-a" + i).toList();
        String poison = run + "-poison";
        String nackedOnce = run + "-once";
        channels.script("batch-combined-in", (k, attempt) -> k.equals(poison) ? PERMANENT
                : k.equals(nackedOnce) && attempt == 1 ? NACK : ACK);
        List<String> all = new java.util.ArrayList<>(acked);
        all.add(10, poison);
        all.add(20, nackedOnce);

        DefaultMQProducer producer = RawRocketMQ.producer();
        try {
            // The consumer first has to know the topic's queues, so that the rest arrives a few at a time.
            String first = run + "-first";
            sendAlone(producer, first);
            await().atMost(Duration.ofSeconds(60)).until(() -> !channels.deliveries("batch-combined-in", first).isEmpty());
            for (String key : all) {
                sendAlone(producer, key);
                Thread.sleep(20); // pacing, not waiting for a condition: messages trickle in while a batch is held
            }
        } finally {
            producer.shutdown();
        }

        List<MessageExt> dead = RawRocketMQ.readDeadLetters("it_batch_combined_group",
                m -> m.getKeys() != null && m.getKeys().startsWith(run), 1, Duration.ofSeconds(90));
        assertThat(dead).extracting(MessageExt::getKeys).containsExactly(poison);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            acked.forEach(key -> assertThat(channels.deliveries("batch-combined-in", key)).hasSize(1));
            assertThat(channels.deliveries("batch-combined-in", poison)).hasSize(1);
            assertThat(channels.deliveries("batch-combined-in", nackedOnce)).extracting(Delivery::reconsumeTimes)
                    .containsExactly(0, 1);
        });
        List<Batch> batches = channels.batches().stream()
                .filter(b -> b.payloads().stream().anyMatch(all::contains)).toList();
        assertThat(batches).allSatisfy(b -> assertThat(b.payloads()).hasSizeLessThanOrEqualTo(16));
        assertThat(batches).as("a combined batch spans queues").anySatisfy(b -> assertThat(
                b.metadata().stream().map(IncomingRocketMQMetadata::queueId).distinct().count()).isGreaterThan(1));
        assertThat(channels.combinedMaxInFlight()).isEqualTo(1);
    }

    private static void sendAlone(DefaultMQProducer producer, String key) throws Exception {
        Message message = new Message("it_batch_combined", key.getBytes(StandardCharsets.UTF_8));
        message.setKeys(key);
        assertThat(producer.send(message).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
    }

    private static void sendAsOneBatch(DefaultMQProducer producer, List<String> keys) throws Exception {
        sendAsOneBatch(producer, "it_batch", keys);
    }

    private static void sendAsOneBatch(DefaultMQProducer producer, String topic, List<String> keys) throws Exception {
        List<Message> messages = keys.stream().map(key -> {
            Message message = new Message(topic, key.getBytes(StandardCharsets.UTF_8));
            message.setKeys(key);
            return message;
        }).toList();
        assertThat(producer.send(messages).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
    }
}
