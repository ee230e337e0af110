package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQSendException;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Delivery through each send mode to a consumer group. Real broker started in-process by the
 * extension's Dev Services.
 */
@QuarkusTest
class BasicDeliveryTest {

    @Inject
    BasicChannels channels;

    @Test
    void clientsSpeakBinaryHeadersByDefault() {
        // Nothing in this build sets rocketmq.serialize.type: the extension's default applies, and
        // every delivery test here runs over it.
        assertThat(RemotingCommand.getSerializeTypeConfigInThisServer()).isEqualTo(SerializeType.ROCKETMQ);
        assertThat(RemotingCommand.createRequestCommand(0, null).getSerializeTypeCurrentRPC())
                .isEqualTo(SerializeType.ROCKETMQ);
    }

    @ParameterizedTest
    @ValueSource(strings = { "sync", "async", "oneway" })
    void messageSentWithEachModeIsConsumedOnceWithTagAndKeys(String mode) throws Exception {
        String payload = mode + "-" + System.nanoTime();
        CompletableFuture<Void> acked = new CompletableFuture<>();
        channels.emitter(mode).send(Message.of(payload)
                .addMetadata(OutgoingRocketMQMetadata.builder().withKeys("key-" + payload, "second").build())
                .withAck(() -> {
                    acked.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(t -> {
                    acked.completeExceptionally(t);
                    return CompletableFuture.completedFuture(null);
                }));
        acked.get(10, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(channels.received())
                .filteredOn(r -> r.payload().equals(payload))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.tag()).isEqualTo(mode);
                    assertThat(r.keys()).containsExactly("key-" + payload, "second");
                    assertThat(r.reconsumeTimes()).isZero();
                }));
    }

    /**
     * A sync channel sends on one worker thread, message after message: a send that fails (here a
     * body over the client's 4 MB limit, refused before it leaves the client) nacks only that
     * message, and the messages emitted after it are still sent, acked and completed in order.
     */
    @Test
    void failedSyncSendNacksThatMessageOnlyAndTheOnesBehindItAreSentInOrder() throws Exception {
        String run = "sync-failure-" + System.nanoTime();
        String oversized = "x".repeat(4 * 1024 * 1024 + 1);
        List<String> completions = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> done = List.of(new CompletableFuture<>(), new CompletableFuture<>(),
                new CompletableFuture<>());
        List<String> payloads = List.of(run + "-first", oversized, run + "-third");
        List<String> names = List.of("first", "oversized", "third");
        for (int i = 0; i < payloads.size(); i++) {
            String name = names.get(i);
            CompletableFuture<Void> completed = done.get(i);
            channels.emitter("sync").send(Message.of(payloads.get(i))
                    .withAck(() -> {
                        completions.add("ack " + name);
                        completed.complete(null);
                        return CompletableFuture.completedFuture(null);
                    })
                    .withNack(t -> {
                        completions.add("nack " + name);
                        completed.completeExceptionally(t);
                        return CompletableFuture.completedFuture(null);
                    }));
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).handle((v, t) -> null).get(30, TimeUnit.SECONDS);

        assertThat(completions).containsExactly("ack first", "nack oversized", "ack third");
        assertThatThrownBy(done.get(1)::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(RocketMQSendException.class);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(channels.received())
                .extracting(BasicChannels.Received::payload)
                .filteredOn(p -> p.startsWith(run))
                .containsExactlyInAnyOrder(run + "-first", run + "-third"));
        assertThat(channels.received()).extracting(BasicChannels.Received::payload).doesNotContain(oversized);
    }
}
