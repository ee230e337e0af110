package dev.orderflow.rocketmq.it;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.rocketmq.IncomingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQBatchFailure;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * The channels of the connector's failure-path tests. Every incoming method records each
 * delivery and answers as the running test scripted it for the message key: acknowledge, fail
 * transiently (nack) or fail permanently (nack with {@link RocketMQPermanentFailure}). Unscripted
 * keys are acknowledged.
 */
@ApplicationScoped
public class FailurePathChannels {

    /** How the application answers one delivery. */
    public enum Answer {
        ACK, NACK, PERMANENT
    }

    /** Decides the answer for the {@code attempt}-th delivery (1-based) of {@code key} on a channel. */
    @FunctionalInterface
    public interface Script {
        Answer answer(String key, int attempt);
    }

    /**
     * One delivery as the application saw it.
     *
     * @param batch the index of the batch it came in (batch channels), else -1
     */
    public record Delivery(String channel, String key, String payload, int attempt, int reconsumeTimes,
            String topic, int queueId, long queueOffset, Answer answer, int batch) {
    }

    /** One batch as the application saw it: payloads and, in the same order, their metadata. */
    public record Batch(List<String> payloads, List<IncomingRocketMQMetadata> metadata) {
    }

    @Inject
    @Channel("conn-out")
    Emitter<String> out;

    /** Exists so that the readiness test sees an outgoing channel on the second name server too. */
    @Inject
    @Channel("health-out")
    Emitter<String> healthOut;

    @Inject
    @Channel("unconfirmed-sync")
    Emitter<String> unconfirmedSync;

    @Inject
    @Channel("unconfirmed-async")
    Emitter<String> unconfirmedAsync;

    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final List<Batch> batches = new CopyOnWriteArrayList<>();
    private final AtomicInteger combinedInFlight = new AtomicInteger();
    private final AtomicInteger combinedMaxInFlight = new AtomicInteger();

    /** Transient failures are redelivered by the broker (concurrently). */
    @Incoming("redeliver-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> redeliver(Message<String> message) {
        return answer("redeliver-in", message);
    }

    /** Small max-reconsume-times: a message failing every time ends in the DLQ. */
    @Incoming("exhaust-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> exhaust(Message<String> message) {
        return answer("exhaust-in", message);
    }

    /**
     * Permanent failures thrown by a payload method, the way application code usually fails: the
     * payload is the key; the metadata comes in as a parameter.
     */
    @Incoming("permanent-in")
    @Blocking(ordered = false)
    public void permanent(String payload, IncomingRocketMQMetadata metadata) {
        Answer answer = record("permanent-in", payload, payload, metadata, -1);
        if (answer == Answer.PERMANENT) {
            throw new RocketMQPermanentFailure("format", "unparseable body: " + payload);
        }
        if (answer == Answer.NACK) {
            throw new IllegalStateException("transient failure for " + payload);
        }
    }

    /** Orderly: one message at a time per queue; a failure is retried in place. */
    @Incoming("orderly-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> orderly(Message<String> message) {
        return answer("orderly-in", message);
    }

    @Incoming("metrics-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> metrics(Message<String> message) {
        return answer("metrics-in", message);
    }

    /** Batch mode: the batch fails as a whole when any element's script says so. */
    @Incoming("batch-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> batch(Message<List<String>> message) {
        List<IncomingRocketMQMetadata> metadata = metadataOf(message);
        int index = recordBatch(message.getPayload(), metadata);
        Answer worst = Answer.ACK;
        for (int i = 0; i < metadata.size(); i++) {
            Answer answer = record("batch-in", metadata.get(i).key(), message.getPayload().get(i), metadata.get(i),
                    index);
            if (answer.ordinal() > worst.ordinal()) {
                worst = answer;
            }
        }
        return finish(message, worst);
    }

    /**
     * Batch mode with per-element answers: the failed elements are named in a
     * {@link RocketMQBatchFailure}, the others are done.
     */
    @Incoming("batch-elements-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> batchElements(Message<List<String>> message) {
        return answerElements("batch-elements-in", message);
    }

    /**
     * Combined batches ({@code batch-concurrency=1}, eight consumer threads): answers per element
     * like {@link #batchElements}, slowly, so that deliveries pile up meanwhile; counts how many
     * batches the application holds at once.
     */
    @Incoming("batch-combined-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> batchCombined(Message<List<String>> message) throws InterruptedException {
        int holding = combinedInFlight.incrementAndGet();
        combinedMaxInFlight.accumulateAndGet(holding, Math::max);
        try {
            Thread.sleep(300);
        } finally {
            // Held until the answer: counted down before it, because the answer lets the connector
            // hand over the next batch, which could otherwise be counted while this thread has not
            // yet left the method (seen once on a loaded CI machine: 2 at once).
            combinedInFlight.decrementAndGet();
        }
        return answerElements("batch-combined-in", message);
    }

    /** The most batches {@code batch-combined-in} held at once. */
    public int combinedMaxInFlight() {
        return combinedMaxInFlight.get();
    }

    private CompletionStage<Void> answerElements(String channel, Message<List<String>> message) {
        List<IncomingRocketMQMetadata> metadata = metadataOf(message);
        int index = recordBatch(message.getPayload(), metadata);
        Map<Integer, Throwable> failed = new HashMap<>();
        for (int i = 0; i < metadata.size(); i++) {
            Answer answer = record(channel, metadata.get(i).key(), message.getPayload().get(i), metadata.get(i), index);
            if (answer == Answer.NACK) {
                failed.put(i, new IllegalStateException("scripted transient failure"));
            } else if (answer == Answer.PERMANENT) {
                failed.put(i, new RocketMQPermanentFailure("business", "scripted permanent failure"));
            }
        }
        return failed.isEmpty() ? message.ack() : message.nack(new RocketMQBatchFailure(failed));
    }

    private static List<IncomingRocketMQMetadata> metadataOf(Message<List<String>> message) {
        return message.getMetadata(IncomingRocketMQBatchMetadata.class).orElseThrow().messages();
    }

    /** @return the batch's index in {@link #batches()} */
    private int recordBatch(List<String> payloads, List<IncomingRocketMQMetadata> metadata) {
        synchronized (batches) {
            batches.add(new Batch(List.copyOf(payloads), metadata));
            return batches.size() - 1;
        }
    }

    /** The emitter of {@code unconfirmed-<mode>}: a broker that answers every send without SEND_OK. */
    public Emitter<String> unconfirmed(String mode) {
        return switch (mode) {
            case "sync" -> unconfirmedSync;
            case "async" -> unconfirmedAsync;
            default -> throw new IllegalArgumentException(mode);
        };
    }

    /** Keeps the health channel subscribed; the readiness test only looks at its health. */
    @Incoming("health-in")
    public void health(String payload) {
        record("health-in", payload, payload, null, -1);
    }

    private CompletionStage<Void> answer(String channel, Message<String> message) {
        IncomingRocketMQMetadata metadata = message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow();
        return finish(message, record(channel, metadata.key(), message.getPayload(), metadata, -1));
    }

    private static CompletionStage<Void> finish(Message<?> message, Answer answer) {
        return switch (answer) {
            case ACK -> message.ack();
            case NACK -> message.nack(new IllegalStateException("scripted transient failure"));
            case PERMANENT -> message.nack(new RocketMQPermanentFailure("business", "scripted permanent failure"));
        };
    }

    private Answer record(String channel, String key, String payload, IncomingRocketMQMetadata metadata, int batch) {
        int attempt = attempts.computeIfAbsent(channel + "|" + key, k -> new AtomicInteger()).incrementAndGet();
        Script script = scripts.get(channel);
        Answer answer = script == null ? Answer.ACK : script.answer(key, attempt);
        deliveries.add(new Delivery(channel, key, payload, attempt,
                metadata == null ? -1 : metadata.reconsumeTimes(),
                metadata == null ? null : metadata.topic(),
                metadata == null ? -1 : metadata.queueId(),
                metadata == null ? -1 : metadata.queueOffset(),
                answer, batch));
        return answer;
    }

    /** Sets how {@code channel} answers from now on. */
    public void script(String channel, Script script) {
        scripts.put(channel, script);
    }

    /** Every delivery of {@code key} on {@code channel}, in the order the application got them. */
    public List<Delivery> deliveries(String channel, String key) {
        return deliveries.stream().filter(d -> d.channel().equals(channel) && key.equals(d.key())).toList();
    }

    /** Every delivery on {@code channel}, in the order the application got them. */
    public List<Delivery> deliveries(String channel) {
        return deliveries.stream().filter(d -> d.channel().equals(channel)).toList();
    }

    public List<Batch> batches() {
        return List.copyOf(batches);
    }

    /**
     * Sends {@code payload} through the {@code conn-out} channel (sync) to {@code topic} with key
     * {@code key} and, when not null, a sharding key.
     *
     * @return completes when the broker stored it, fails when it did not
     */
    public CompletableFuture<Void> send(String topic, String key, String payload, String shardingKey) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        OutgoingRocketMQMetadata.Builder metadata = OutgoingRocketMQMetadata.builder().withTopic(topic).withKeys(key);
        if (shardingKey != null) {
            metadata.withShardingKey(shardingKey);
        }
        out.send(Message.of(payload)
                .addMetadata(metadata.build())
                .withAck(() -> {
                    sent.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(failure -> {
                    sent.completeExceptionally(failure);
                    return CompletableFuture.completedFuture(null);
                }));
        return sent;
    }
}
