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
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * Batch sending (OutgoingRocketMQBatchMetadata) through a sync, an async and a oneway channel to
 * one topic, and one consumer group that records every stored message with where it was stored.
 * The emitters take {@code Object}: a batch's payload is a {@code List}, a single message's a String.
 */
@ApplicationScoped
public class BatchSendChannels {

    /** One received message: payload, tag, keys, user properties and its place in the queue. */
    public record Received(String payload, String tag, List<String> keys, Map<String, String> properties,
            String brokerName, int queueId, long queueOffset) {
    }

    @Inject
    @Channel("batch-send-sync")
    Emitter<Object> sync;

    @Inject
    @Channel("batch-send-async")
    Emitter<Object> async;

    @Inject
    @Channel("batch-send-oneway")
    Emitter<Object> oneway;

    private final List<Received> received = new CopyOnWriteArrayList<>();

    @Incoming("batch-send-in")
    @Blocking
    public CompletionStage<Void> consume(Message<String> message) {
        IncomingRocketMQMetadata m = message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow();
        received.add(new Received(message.getPayload(), m.tags(), m.keys(), m.properties(), m.brokerName(),
                m.queueId(), m.queueOffset()));
        return message.ack();
    }

    public Emitter<Object> emitter(String mode) {
        return switch (mode) {
            case "sync" -> sync;
            case "async" -> async;
            case "oneway" -> oneway;
            default -> throw new IllegalArgumentException(mode);
        };
    }

    /** Received messages whose payload starts with {@code prefix}. */
    public List<Received> receivedStartingWith(String prefix) {
        return received.stream().filter(r -> r.payload().startsWith(prefix)).toList();
    }
}
