package dev.orderflow.rocketmq.it;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * Transactional sending: {@code tx-orders} is declared in configuration only (no Emitter), and
 * {@code tx-wired} also has an Emitter, which the extension must refuse. One consumer group
 * records what became visible on the topic.
 */
@ApplicationScoped
public class TxChannels {

    /** One visible message as the consumer saw it. */
    public record Received(String payload, String tag, List<String> keys) {
    }

    @Inject
    @Channel("tx-wired")
    Emitter<String> wired;

    private final List<Received> received = new CopyOnWriteArrayList<>();

    @Incoming("tx-in")
    @Blocking
    public CompletionStage<Void> consume(Message<String> message) {
        IncomingRocketMQMetadata metadata = message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow();
        received.add(new Received(message.getPayload(), metadata.tags(), metadata.keys()));
        return message.ack();
    }

    public List<Received> receivedWithKey(String key) {
        return received.stream().filter(r -> r.keys().contains(key)).toList();
    }

    public Emitter<String> wiredEmitter() {
        return wired;
    }

    /** Writes the local row in its own transaction (for tests acting as another instance). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void insertRecord(String key, String payload) {
        TxRecord.of(key, payload).persist();
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean recordExists(String key) {
        return TxRecord.findById(key) != null;
    }
}
