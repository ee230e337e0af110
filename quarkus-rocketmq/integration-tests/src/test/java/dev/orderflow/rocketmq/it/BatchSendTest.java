package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.orderflow.rocketmq.OutgoingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQSendException;
import dev.orderflow.rocketmq.RocketMQTransactions;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Outgoing batches (OutgoingRocketMQBatchMetadata) against the real in-process broker: a batch is
 * stored as one (one queue, consecutive offsets) and every element reaches the consumer group
 * once with its own keys, tag and properties; what RocketMQ batches cannot carry is nacked and
 * nothing of it is stored.
 */
@QuarkusTest
class BatchSendTest {

    @Inject
    BatchSendChannels channels;

    @Inject
    RocketMQTransactions transactions;

    /** {@code message} completing {@code done} on ack, failing it with the nack's cause. */
    private static <T> Message<T> tracked(Message<T> message, CompletableFuture<Void> done) {
        return message.withAck(() -> {
            done.complete(null);
            return CompletableFuture.completedFuture(null);
        }).withNack(t -> {
            done.completeExceptionally(t);
            return CompletableFuture.completedFuture(null);
        });
    }

    private static Message<List<String>> batch(List<String> payloads, List<OutgoingRocketMQMetadata> elements) {
        return Message.of(payloads, Metadata.of(OutgoingRocketMQBatchMetadata.of(elements)));
    }

    private static Throwable nackCause(CompletableFuture<Void> done) throws Exception {
        try {
            done.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the batch was acked, expected a nack");
    }

    @ParameterizedTest
    @ValueSource(strings = { "sync", "async" })
    void batchIsStoredAsOneAndEveryElementArrivesOnceWithItsOwnKeysTagAndProperties(String mode) throws Exception {
        String run = mode + "-batch-" + System.nanoTime();
        int size = 5;
        List<String> payloads = new ArrayList<>();
        List<OutgoingRocketMQMetadata> elements = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            payloads.add(run + "-" + i);
            OutgoingRocketMQMetadata.Builder element = OutgoingRocketMQMetadata.builder()
                    .withKeys(run + "-key-" + i, "second-" + i)
                    .withProperty("index", Integer.toString(i));
            if (i % 2 == 0) {
                element.withTag("even-" + i); // odd elements keep the channel's tag
            }
            elements.add(element.build());
        }
        CompletableFuture<Void> done = new CompletableFuture<>();

        channels.emitter(mode).send(tracked(batch(payloads, elements), done));

        done.get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30)).until(() -> channels.receivedStartingWith(run + "-").size() >= size);
        List<BatchSendChannels.Received> received = channels.receivedStartingWith(run + "-");
        for (int i = 0; i < size; i++) {
            String payload = run + "-" + i;
            String tag = i % 2 == 0 ? "even-" + i : mode;
            int index = i;
            assertThat(received).filteredOn(r -> r.payload().equals(payload)).singleElement().satisfies(r -> {
                assertThat(r.tag()).isEqualTo(tag);
                assertThat(r.keys()).containsExactly(run + "-key-" + index, "second-" + index);
                assertThat(r.properties()).containsEntry("index", Integer.toString(index));
            });
        }
        // One batch is one store: one queue, consecutive offsets in element order.
        Map<String, Long> offsetByPayload = new LinkedHashMap<>();
        received.forEach(r -> offsetByPayload.put(r.payload(), r.queueOffset()));
        assertThat(received).extracting(r -> r.brokerName() + "/" + r.queueId()).containsOnly(
                received.get(0).brokerName() + "/" + received.get(0).queueId());
        long first = offsetByPayload.get(run + "-0");
        for (int i = 0; i < size; i++) {
            assertThat(offsetByPayload.get(run + "-" + i)).as("offset of element %d", i).isEqualTo(first + i);
        }
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> channels.receivedStartingWith(run + "-").size() == size);
    }

    @Test
    void whatBatchesCannotCarryIsNackedAndNothingOfItIsStored() throws Exception {
        String run = "rejected-" + System.nanoTime();
        OutgoingRocketMQMetadata plain = OutgoingRocketMQMetadata.builder().withKeys(run).build();
        List<String> two = List.of(run + "-0", run + "-1");
        Map<String, Message<List<String>>> cases = new LinkedHashMap<>();
        cases.put("delay level", batch(two, List.of(plain, OutgoingRocketMQMetadata.builder().withDelayLevel(2).build())));
        cases.put("sharding key", batch(two, List.of(plain, OutgoingRocketMQMetadata.builder().withShardingKey("o-1").build())));
        cases.put("one topic", batch(two, List.of(plain, OutgoingRocketMQMetadata.builder().withTopic("it_batch_send_other").build())));
        cases.put("one per element", batch(List.of(run + "-0", run + "-1", run + "-2"), List.of(plain, plain)));

        for (Map.Entry<String, Message<List<String>>> c : cases.entrySet()) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            channels.emitter("sync").send(tracked(c.getValue(), done));
            assertThat(nackCause(done)).as(c.getKey()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(c.getKey());
        }
        // Refused by the client itself (all or nothing): the reason is named although it sits in a cause.
        CompletableFuture<Void> emptyBody = new CompletableFuture<>();
        channels.emitter("sync").send(tracked(batch(List.of(run + "-0", ""), List.of(plain, plain)), emptyBody));
        assertThat(nackCause(emptyBody)).isInstanceOf(RocketMQSendException.class)
                .hasMessageContaining("body length is zero");
        CompletableFuture<Void> oneway = new CompletableFuture<>();
        channels.emitter("oneway").send(tracked(batch(two, List.of(plain, plain)), oneway));
        assertThat(nackCause(oneway)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("oneway");

        AtomicBoolean ran = new AtomicBoolean();
        assertThatThrownBy(() -> transactions.execute("tx-orders", batch(two, List.of(plain, plain)),
                () -> ran.getAndSet(true))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch");
        assertThat(ran).as("local work of a refused transactional batch").isFalse();

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> channels.receivedStartingWith(run).isEmpty());
    }

    /** Over the 4 MiB limit the client refuses the whole batch; the channel goes on with the next message. */
    @Test
    void batchOverTheSizeLimitIsNackedWholeAndTheNextBatchIsSent() throws Exception {
        String run = "oversized-" + System.nanoTime();
        String megabyte = "x".repeat(1024 * 1024);
        List<String> payloads = new ArrayList<>(List.of(run + "-small"));
        for (int i = 0; i < 4; i++) {
            payloads.add(run + "-big-" + i + megabyte);
        }
        List<OutgoingRocketMQMetadata> elements = payloads.stream()
                .map(p -> OutgoingRocketMQMetadata.builder().withKeys(run).build()).toList();
        CompletableFuture<Void> oversized = new CompletableFuture<>();
        CompletableFuture<Void> next = new CompletableFuture<>();
        OutgoingRocketMQMetadata after = OutgoingRocketMQMetadata.builder().withKeys(run + "-after").build();

        channels.emitter("sync").send(tracked(batch(payloads, elements), oversized));
        channels.emitter("sync").send(tracked(batch(List.of(run + "-after-0", run + "-after-1"), List.of(after, after)), next));

        assertThat(nackCause(oversized)).isInstanceOf(RocketMQSendException.class)
                .hasMessageContaining("batch of 5 messages").hasMessageContaining("over max");
        next.get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30)).until(() -> channels.receivedStartingWith(run + "-after-").size() == 2);
        assertThat(channels.receivedStartingWith(run)).as("nothing of the refused batch")
                .extracting(BatchSendChannels.Received::payload)
                .containsExactlyInAnyOrder(run + "-after-0", run + "-after-1");
    }

    @Test
    void listPayloadWithoutBatchMetadataIsStillOneJsonMessage() throws Exception {
        String run = "list-" + System.nanoTime();
        CompletableFuture<Void> done = new CompletableFuture<>();

        channels.emitter("sync").send(tracked(Message.of(List.of(run + "-a", run + "-b")), done));

        done.get(30, TimeUnit.SECONDS);
        String json = "[\"" + run + "-a\",\"" + run + "-b\"]";
        await().atMost(Duration.ofSeconds(30)).until(() -> !channels.receivedStartingWith(json).isEmpty());
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
                .until(() -> channels.receivedStartingWith(json).size() == 1);
    }
}
