package dev.orderflow.consumer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import dev.orderflow.rocketmq.IncomingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;

/**
 * A message as the connector would hand it over (same metadata type), whose ack and nack
 * callbacks record what the pipeline did, and when.
 */
final class Deliveries {

    static final String GROUP = "pipeline_test_group";

    private Deliveries() {
    }

    static Delivered deliver(String body, String keys, int reconsumeTimes) {
        return deliver(body, keys, reconsumeTimes, () -> { });
    }

    /** @param onAck runs inside the ack callback, before the ack is recorded */
    static Delivered deliver(String body, String keys, int reconsumeTimes, Runnable onAck) {
        IncomingRocketMQMetadata metadata = new IncomingRocketMQMetadata("MSG-" + System.nanoTime(),
                keys == null ? List.of() : List.of(keys), "create", "order_topic", 0, "broker-a", 0L, reconsumeTimes,
                System.currentTimeMillis(), System.currentTimeMillis(), Map.of(), GROUP);
        Delivered delivered = new Delivered();
        delivered.message = recorded(body, Metadata.of(metadata), delivered, onAck);
        return delivered;
    }

    /** A batch ({@code batch=true}) of the given bodies and keys, first delivery. */
    static Delivered deliverBatch(List<String> bodies, List<String> keys) {
        return deliverBatch(bodies, keys, GROUP);
    }

    /** A batch of the given bodies and keys to {@code group}, first delivery. */
    static Delivered deliverBatch(List<String> bodies, List<String> keys, String group) {
        List<IncomingRocketMQMetadata> metadata = new java.util.ArrayList<>();
        for (int i = 0; i < bodies.size(); i++) {
            metadata.add(new IncomingRocketMQMetadata("MSG-" + System.nanoTime() + "-" + i, List.of(keys.get(i)), "create",
                    "order_topic", i % 4, "broker-a", i, 0, System.currentTimeMillis(), System.currentTimeMillis(),
                    Map.of(), group));
        }
        Delivered delivered = new Delivered();
        delivered.batch = recorded(List.copyOf(bodies), Metadata.of(new IncomingRocketMQBatchMetadata(metadata)),
                delivered, () -> { });
        return delivered;
    }

    /** A message whose ack and nack are counted in {@code delivered}. */
    private static <T> Message<T> recorded(T payload, Metadata metadata, Delivered delivered, Runnable onAck) {
        return Message.of(payload, metadata,
                () -> {
                    onAck.run();
                    delivered.acks.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                },
                cause -> {
                    delivered.nackCause.set(cause);
                    delivered.nacks.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                });
    }

    static final class Delivered {
        Message<List<String>> batch;
        Message<String> message;
        final AtomicInteger acks = new AtomicInteger();
        final AtomicInteger nacks = new AtomicInteger();
        final AtomicReference<Throwable> nackCause = new AtomicReference<>();
    }
}
