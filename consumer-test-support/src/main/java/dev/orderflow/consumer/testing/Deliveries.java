package dev.orderflow.consumer.testing;

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
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;

/**
 * A message as the connector hands it to an {@code @Incoming} method (same metadata type), for
 * tests that call the consumer bean directly: two "instances" racing on one message, or a
 * delivery whose acknowledgement never reaches the broker (the process died after the commit).
 * Its ack and nack callbacks only count.
 */
public final class Deliveries {

    private Deliveries() {
    }

    /** {@code event} delivered to {@code consumerGroup} for the {@code reconsumeTimes + 1}-th time. */
    public static Delivered of(OrderEvent event, String consumerGroup, int reconsumeTimes) {
        IncomingRocketMQMetadata metadata = new IncomingRocketMQMetadata("TEST-" + System.nanoTime(),
                List.of(event.messageKey()), event.tag(), OrderMessaging.TOPIC, 0, "broker-test", 0L, reconsumeTimes,
                System.currentTimeMillis(), System.currentTimeMillis(), Map.of(), consumerGroup);
        Delivered delivered = new Delivered();
        delivered.message = Message.of(OrderEventJson.toJson(event), Metadata.of(metadata),
                () -> {
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

    /** One delivery and what the consumer answered. */
    public static final class Delivered {
        private Message<String> message;
        private final AtomicInteger acks = new AtomicInteger();
        private final AtomicInteger nacks = new AtomicInteger();
        private final AtomicReference<Throwable> nackCause = new AtomicReference<>();

        public Message<String> message() {
            return message;
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
