package dev.orderflow.consumer.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rocketmq.IncomingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;

/**
 * A message as the connector hands it to an {@code @Incoming} method (same metadata type), for
 * tests that call the consumer bean directly: two "instances" racing on one message, a delivery
 * whose acknowledgement never reaches the broker (the process died after the commit), or a batch
 * with a chosen content.
 * Its ack and nack callbacks only count.
 */
public final class Deliveries {

    private Deliveries() {
    }

    /** {@code event} delivered to {@code consumerGroup} for the {@code reconsumeTimes + 1}-th time. */
    public static Delivered of(OrderEvent event, String consumerGroup, int reconsumeTimes) {
        Delivered delivered = new Delivered();
        delivered.message = recorded(OrderEventJson.toJson(event),
                Metadata.of(metadata(event, consumerGroup, 0, reconsumeTimes)), delivered);
        return delivered;
    }

    /**
     * {@code events} delivered to {@code consumerGroup} together, as one batch of a
     * {@code batch=true} channel (first delivery each), in this order.
     */
    public static Delivered batchOf(List<OrderEvent> events, String consumerGroup) {
        List<IncomingRocketMQMetadata> metadata = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            metadata.add(metadata(events.get(i), consumerGroup, i, 0));
        }
        Delivered delivered = new Delivered();
        delivered.batch = recorded(events.stream().map(OrderEventJson::toJson).toList(),
                Metadata.of(new IncomingRocketMQBatchMetadata(metadata)), delivered);
        return delivered;
    }

    private static IncomingRocketMQMetadata metadata(OrderEvent event, String consumerGroup, long offset,
            int reconsumeTimes) {
        return new IncomingRocketMQMetadata("TEST-" + System.nanoTime() + "-" + offset, List.of(event.messageKey()),
                event.tag(), OrderMessaging.TOPIC, 0, "broker-test", offset, reconsumeTimes, System.currentTimeMillis(),
                System.currentTimeMillis(), Map.of(), consumerGroup);
    }

    /** A message whose ack and nack are counted in {@code delivered}. */
    private static <T> Message<T> recorded(T payload, Metadata metadata, Delivered delivered) {
        return Message.of(payload, metadata,
                () -> {
                    delivered.acks.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                },
                cause -> {
                    delivered.nackCause.set(cause);
                    delivered.nacks.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                });
    }

    /** One delivery and what the consumer answered. */
    public static final class Delivered {
        private Message<String> message;
        private Message<List<String>> batch;
        private final AtomicInteger acks = new AtomicInteger();
        private final AtomicInteger nacks = new AtomicInteger();
        private final AtomicReference<Throwable> nackCause = new AtomicReference<>();

        /** The single message ({@link #of}). */
        public Message<String> message() {
            return message;
        }

        /** The batch message ({@link #batchOf}). */
        public Message<List<String>> batch() {
            return batch;
        }

        public int acks() {
            return acks.get();
        }

        public int nacks() {
            return nacks.get();
        }

        public Throwable nackCause() {
            return nackCause.get();
        }
    }
}
