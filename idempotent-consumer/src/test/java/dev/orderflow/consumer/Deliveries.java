package dev.orderflow.consumer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

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
        delivered.message = Message.of(body, Metadata.of(metadata),
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
        return delivered;
    }

    static final class Delivered {
        Message<String> message;
        final AtomicInteger acks = new AtomicInteger();
        final AtomicInteger nacks = new AtomicInteger();
        final AtomicReference<Throwable> nackCause = new AtomicReference<>();
    }
}
