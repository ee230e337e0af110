package dev.orderflow.rocketmq.it;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * Two consumer groups on one topic: {@code dlq-in} dead-letters bodies starting with
 * {@code poison} as a format failure and accepts the rest; {@code dlq-other-in} accepts
 * everything. Both record what they were handed.
 */
@ApplicationScoped
public class DeadLetterChannels {

    /** One delivery as a consumer saw it. */
    public record Received(String payload, String topic, String tag, List<String> keys, int reconsumeTimes,
            Map<String, String> properties) {
    }

    @Inject
    @Channel("dlq-out")
    Emitter<String> out;

    private final List<Received> dlqGroup = new CopyOnWriteArrayList<>();
    private final List<Received> otherGroup = new CopyOnWriteArrayList<>();

    @Incoming("dlq-in")
    @Blocking
    public CompletionStage<Void> consume(Message<String> message) {
        dlqGroup.add(received(message));
        if (message.getPayload().startsWith("poison")) {
            return message.nack(new RocketMQPermanentFailure("format", "unparseable body: " + message.getPayload()));
        }
        return message.ack();
    }

    @Incoming("dlq-other-in")
    @Blocking
    public CompletionStage<Void> consumeOther(Message<String> message) {
        otherGroup.add(received(message));
        return message.ack();
    }

    private static Received received(Message<String> message) {
        IncomingRocketMQMetadata metadata = message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow();
        return new Received(message.getPayload(), metadata.topic(), metadata.tags(), metadata.keys(),
                metadata.reconsumeTimes(), metadata.properties());
    }

    public List<Received> dlqGroupWithKey(String key) {
        return dlqGroup.stream().filter(r -> r.keys().contains(key)).toList();
    }

    public List<Received> otherGroupWithKey(String key) {
        return otherGroup.stream().filter(r -> r.keys().contains(key)).toList();
    }

    public Emitter<String> emitter() {
        return out;
    }
}
