package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Delivery through each send mode to a consumer group. Real broker started in-process by the
 * extension's Dev Services.
 */
@QuarkusTest
class BasicDeliveryTest {

    @Inject
    BasicChannels channels;

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
}
