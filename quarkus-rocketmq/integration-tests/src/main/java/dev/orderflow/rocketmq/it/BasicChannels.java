package dev.orderflow.rocketmq.it;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import io.smallrye.reactive.messaging.annotations.Blocking;

/** Sends through the three send modes and records what the consumer group receives. */
@ApplicationScoped
public class BasicChannels {

    /** One received message: payload, tag and keys as the consumer saw them. */
    public record Received(String payload, String tag, List<String> keys, int reconsumeTimes) {
    }

    @Inject
    @Channel("basic-sync")
    Emitter<String> sync;

    @Inject
    @Channel("basic-async")
    Emitter<String> async;

    @Inject
    @Channel("basic-oneway")
    Emitter<String> oneway;

    private final List<Received> received = new CopyOnWriteArrayList<>();

    @Incoming("basic-in")
    @Blocking
    public java.util.concurrent.CompletionStage<Void> consume(Message<String> message) {
        IncomingRocketMQMetadata metadata = message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow();
        received.add(new Received(message.getPayload(), metadata.tags(), metadata.keys(), metadata.reconsumeTimes()));
        return message.ack();
    }

    public Emitter<String> emitter(String mode) {
        return switch (mode) {
            case "sync" -> sync;
            case "async" -> async;
            case "oneway" -> oneway;
            default -> throw new IllegalArgumentException(mode);
        };
    }

    public List<Received> received() {
        return received;
    }
}
