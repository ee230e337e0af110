package dev.orderflow.status.messaging;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.orderflow.consumer.IdempotentConsumer;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQChannels;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.status.config.StatusServiceConfig;
import dev.orderflow.status.service.DeadLetteredEvent;
import dev.orderflow.status.service.StatusRecorder;
import io.quarkus.runtime.StartupEvent;

/**
 * Reads {@code %DLQ%<group>} of every required consumer: retries-exhausted (system) dead letters
 * are reported nowhere else. The set of queues follows {@code orderflow.status.required-consumers},
 * so it cannot be a fixed list of {@code @Incoming} channels: for each consumer this bean opens a
 * channel from code ({@link RocketMQChannels}: same source, ack-after-commit, retries, DLQ, health
 * and metrics as a declared channel) and runs each entry through the shared pipeline, deduped on
 * {@link DeadLetteredEvent#dedupeKey()}.
 *
 * <p>Each queue is read by its own group ({@code <group-prefix><consumer>}): a RocketMQ group must
 * subscribe to the same topics on all of its clients. The connector closes these sources at
 * shutdown with its declared ones.
 */
@ApplicationScoped
public class DeadLetterSubscriptions {

    private static final Logger LOG = Logger.getLogger(DeadLetterSubscriptions.class);

    /** Channel name of a consumer's dead-letter queue, for logs, health and metrics. */
    static String channelOf(String consumer) {
        return "dead-letters-" + consumer;
    }

    private final RocketMQChannels channels;
    private final StatusServiceConfig statusConfig;
    private final IdempotentConsumer pipeline;
    private final StatusRecorder recorder;

    @Inject
    public DeadLetterSubscriptions(RocketMQChannels channels, StatusServiceConfig statusConfig,
            IdempotentConsumer pipeline, StatusRecorder recorder) {
        this.channels = channels;
        this.statusConfig = statusConfig;
        this.pipeline = pipeline;
        this.recorder = recorder;
    }

    void subscribe(@Observes StartupEvent startup) {
        if (!statusConfig.deadLetters().enabled()) {
            LOG.warn("Dead-letter queues are not read (orderflow.status.dead-letters.enabled=false): "
                    + "retries-exhausted failures will not show in any status");
            return;
        }
        for (String consumer : statusConfig.requiredConsumers()) {
            subscribe(consumer, statusConfig.groupOf(consumer));
        }
    }

    private void subscribe(String consumer, String consumerGroup) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("topic", RocketMQDeadLetters.dlqTopic(consumerGroup));
        attributes.put("consumer-group", statusConfig.deadLetters().groupPrefix() + consumer);
        attributes.put("consume-from", statusConfig.deadLetters().consumeFrom());
        attributes.put("consume-threads", Integer.toString(statusConfig.deadLetters().consumeThreads()));
        // The connector's consumer thread hands each entry over and waits for its ack or nack, so
        // handling it right here (blocking on the database) is what bounds the entries in flight.
        channels.openIncoming(channelOf(consumer), attributes).subscribe().with(
                entry -> handle(consumer, consumerGroup, entry),
                failure -> LOG.errorf(failure, "Dead-letter channel %s stopped: entries of %s are no longer read",
                        channelOf(consumer), RocketMQDeadLetters.dlqTopic(consumerGroup)));
    }

    private void handle(String consumer, String consumerGroup, Message<?> entry) {
        try {
            pipeline.consume(entry,
                    body -> DeadLetterParser.parse(consumer, consumerGroup,
                            entry.getMetadata(IncomingRocketMQMetadata.class).orElseThrow(), body),
                    DeadLetteredEvent::dedupeKey,
                    (deadLetter, context) -> recorder.deadLetter(deadLetter));
        } catch (RuntimeException e) {
            // Only a programming error gets here (the pipeline turns failures into nacks); nack so
            // the entry is retried and the subscription survives for the next one.
            LOG.errorf(e, "Dead-letter channel %s could not process an entry", channelOf(consumer));
            entry.nack(e);
        }
    }
}
