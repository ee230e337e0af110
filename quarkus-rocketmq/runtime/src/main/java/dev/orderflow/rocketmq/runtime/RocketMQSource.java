package dev.orderflow.rocketmq.runtime;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

import dev.orderflow.rocketmq.IncomingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.smallrye.reactive.messaging.health.HealthReport;

/**
 * An incoming channel: a push consumer whose listener hands each message (or batch) to the
 * application and reports success to the broker only after the application acknowledged it.
 *
 * <p>Outcomes: ack → CONSUME_SUCCESS; nack with a {@link RocketMQPermanentFailure} → written to
 * {@code %DLQ%<group>} with its reason after this one attempt; any other nack (or no answer within
 * {@code processing-timeout}) → redelivered with back-off, and dead-lettered once
 * {@code max-reconsume-times} is reached. The consumer thread waits for the outcome, so the
 * messages in flight are bounded by the consumer threads.
 */
public class RocketMQSource {

    private static final Logger LOG = Logger.getLogger(RocketMQSource.class);
    private static final int MAX_REASON_LENGTH = 1000;

    private final RocketMQConnectorIncomingConfiguration config;
    private final String channel;
    private final String group;
    private final String topic;
    private final DefaultMQPushConsumer consumer;
    private final ChannelMetrics metrics;
    private final NameServerProbe probe;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Multi<org.eclipse.microprofile.reactive.messaging.Message<?>> stream;

    private volatile MultiEmitter<? super org.eclipse.microprofile.reactive.messaging.Message<?>> emitter;
    private volatile boolean started;
    private volatile boolean stopping;
    private volatile Throwable startFailure;
    private DefaultMQProducer deadLetterProducer;

    RocketMQSource(RocketMQConnectorIncomingConfiguration config) {
        this.config = config;
        this.channel = config.getChannel();
        this.group = config.getConsumerGroup().orElse(channel);
        this.topic = config.getTopic().orElse(channel);
        this.metrics = new ChannelMetrics(channel);
        this.probe = new NameServerProbe(config.getNameServer(), config.getHealthTimeout());
        this.consumer = createConsumer();
        this.stream = Multi.createFrom()
                .<org.eclipse.microprofile.reactive.messaging.Message<?>> emitter(this::start, BackPressureStrategy.BUFFER);
    }

    private DefaultMQPushConsumer createConsumer() {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(config.getNameServer());
        c.setInstanceName(config.getInstanceName().orElse(RocketMQMessages.instanceName(channel)));
        int threads = config.getConsumeThreads();
        c.setConsumeThreadMin(threads);
        c.setConsumeThreadMax(threads);
        c.setConsumeMessageBatchMaxSize(config.getBatch() ? config.getBatchSize() : 1);
        c.setPullBatchSize(Math.max(config.getPullBatchSize(), config.getBatch() ? config.getBatchSize() : 1));
        c.setMaxReconsumeTimes(config.getMaxReconsumeTimes());
        c.setSuspendCurrentQueueTimeMillis(config.getOrderlyRetryDelay());
        c.setConsumeFromWhere(switch (config.getConsumeFrom()) {
            case "first" -> ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET;
            case "last" -> ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET;
            default -> throw new IllegalArgumentException("Channel " + channel + ": consume-from must be 'first' or "
                    + "'last', not '" + config.getConsumeFrom() + "'");
        });
        c.setAwaitTerminationMillisWhenShutdown(config.getShutdownTimeout());
        try {
            c.subscribe(topic, config.getTagExpression());
        } catch (MQClientException e) {
            throw new IllegalArgumentException("Channel " + channel + ": cannot subscribe to " + topic + " with '"
                    + config.getTagExpression() + "'", e);
        }
        switch (config.getConsumeMode()) {
            case "concurrently" -> c.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
                boolean redeliver = consume(msgs);
                return redeliver ? ConsumeConcurrentlyStatus.RECONSUME_LATER : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            case "orderly" -> c.registerMessageListener((MessageListenerOrderly) (msgs, context) -> {
                boolean redeliver = consume(msgs);
                return redeliver ? ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT : ConsumeOrderlyStatus.SUCCESS;
            });
            default -> throw new IllegalArgumentException("Channel " + channel + ": consume-mode must be "
                    + "'concurrently' or 'orderly', not '" + config.getConsumeMode() + "'");
        }
        return c;
    }

    Multi<org.eclipse.microprofile.reactive.messaging.Message<?>> stream() {
        return stream;
    }

    public String channel() {
        return channel;
    }

    public String consumerGroup() {
        return group;
    }

    public String topic() {
        return topic;
    }

    /** Starts consuming once the application subscribed: nothing is fetched that nobody can take. */
    private void start(MultiEmitter<? super org.eclipse.microprofile.reactive.messaging.Message<?>> e) {
        this.emitter = e;
        try {
            consumer.start();
            started = true;
            LOG.infof("RocketMQ channel %s consuming %s (%s) as group %s, %s, from %s", channel, topic,
                    config.getTagExpression(), group, config.getConsumeMode(), config.getNameServer());
        } catch (MQClientException ex) {
            startFailure = ex;
            e.fail(ex);
        }
    }

    /**
     * Hands {@code msgs} to the application and waits for its answer.
     *
     * @return true when the messages must be redelivered (retried in place for orderly, sent
     *         back by the client for concurrently); false when every message is finished
     *         (acknowledged or dead-lettered)
     */
    private boolean consume(List<MessageExt> msgs) {
        if (stopping || emitter == null) {
            // Not handed over, so not acknowledged: redelivered after the restart.
            return true;
        }
        inFlight.incrementAndGet();
        try {
            Throwable failure = deliver(msgs);
            if (failure == null) {
                metrics.acked(msgs.size());
                return false;
            }
            RocketMQPermanentFailure permanent = RocketMQPermanentFailure.find(failure);
            boolean exhausted = msgs.stream().anyMatch(m -> m.getReconsumeTimes() >= config.getMaxReconsumeTimes());
            if (permanent != null || exhausted) {
                String failureClass = permanent != null ? permanent.failureClass() : RocketMQDeadLetters.SYSTEM_CLASS;
                if (deadLetter(msgs, failureClass, permanent != null ? permanent.getMessage() : String.valueOf(failure))) {
                    metrics.deadLettered(msgs.size());
                    return false;
                }
            }
            metrics.retried(msgs.size());
            LOG.debugf(failure, "Channel %s: redelivering %d message(s) (attempt %d)", channel, msgs.size(),
                    msgs.get(0).getReconsumeTimes() + 1);
            return true;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Emits the messages and waits for ack (null) or nack (the cause). */
    private Throwable deliver(List<MessageExt> msgs) {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        org.eclipse.microprofile.reactive.messaging.Message<?> message;
        if (config.getBatch()) {
            List<String> payloads = new ArrayList<>(msgs.size());
            List<IncomingRocketMQMetadata> metadata = new ArrayList<>(msgs.size());
            for (MessageExt m : msgs) {
                payloads.add(new String(m.getBody(), StandardCharsets.UTF_8));
                metadata.add(RocketMQMessages.metadata(m, group));
            }
            message = org.eclipse.microprofile.reactive.messaging.Message.of(payloads,
                    Metadata.of(new IncomingRocketMQBatchMetadata(List.copyOf(metadata))),
                    () -> complete(outcome, null), cause -> complete(outcome, cause));
        } else {
            MessageExt m = msgs.get(0);
            message = org.eclipse.microprofile.reactive.messaging.Message.of(
                    new String(m.getBody(), StandardCharsets.UTF_8),
                    Metadata.of(RocketMQMessages.metadata(m, group)),
                    () -> complete(outcome, null), cause -> complete(outcome, cause));
        }
        metrics.consumed(msgs.size());
        if (emitter.isCancelled()) {
            return new IllegalStateException("Channel " + channel + ": the application stopped consuming");
        }
        emitter.emit(message);
        try {
            return outcome.get(config.getProcessingTimeout(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return new TimeoutException("Channel " + channel + ": no ack or nack within "
                    + config.getProcessingTimeout() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static CompletableFuture<Void> complete(CompletableFuture<Throwable> outcome, Throwable cause) {
        outcome.complete(cause == null ? null : cause);
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Writes the messages to {@code %DLQ%<group>} with the failure class and reason.
     *
     * @return false when a write failed: the caller then redelivers, so nothing is lost
     */
    private boolean deadLetter(List<MessageExt> msgs, String failureClass, String reason) {
        String dlq = RocketMQDeadLetters.dlqTopic(group);
        String trimmedReason = reason == null ? "" : reason.length() > MAX_REASON_LENGTH
                ? reason.substring(0, MAX_REASON_LENGTH) : reason;
        try {
            DefaultMQProducer producer = deadLetterProducer();
            for (MessageExt m : msgs) {
                Message copy = new Message(dlq, m.getBody());
                if (m.getTags() != null) {
                    copy.setTags(m.getTags());
                }
                if (m.getKeys() != null) {
                    copy.setKeys(m.getKeys());
                }
                RocketMQMessages.userProperties(m).forEach(copy::putUserProperty);
                MessageAccessor.putProperty(copy, RocketMQDeadLetters.ORIGIN_TOPIC,
                        RocketMQMessages.metadata(m, group).topic());
                MessageAccessor.putProperty(copy, RocketMQDeadLetters.ORIGIN_MESSAGE_ID, m.getMsgId());
                copy.putUserProperty(RocketMQDeadLetters.FAILURE_CLASS, failureClass);
                copy.putUserProperty(RocketMQDeadLetters.FAILURE_REASON, trimmedReason.isEmpty() ? "-" : trimmedReason);
                copy.putUserProperty(RocketMQDeadLetters.ATTEMPTS, Integer.toString(m.getReconsumeTimes() + 1));
                copy.putUserProperty(RocketMQDeadLetters.DEAD_LETTERED_AT, Long.toString(System.currentTimeMillis()));
                SendResult result = producer.send(copy);
                if (result.getSendStatus() != SendStatus.SEND_OK) {
                    LOG.warnf("Channel %s: DLQ write of %s answered %s; redelivering", channel, m.getMsgId(),
                            result.getSendStatus());
                    return false;
                }
            }
            LOG.warnf("Channel %s: %d message(s) %s dead-lettered to %s (%s: %s)", channel, msgs.size(),
                    msgs.stream().map(MessageExt::getKeys).toList(), dlq, failureClass, trimmedReason);
            return true;
        } catch (Exception e) {
            LOG.warnf(e, "Channel %s: cannot write to %s; the message(s) will be redelivered", channel, dlq);
            return false;
        }
    }

    private synchronized DefaultMQProducer deadLetterProducer() throws MQClientException {
        if (deadLetterProducer == null) {
            DefaultMQProducer producer = new DefaultMQProducer(group + "_dlq_writer");
            producer.setNamesrvAddr(config.getNameServer());
            producer.setInstanceName(RocketMQMessages.instanceName(channel + "-dlq"));
            producer.start();
            deadLetterProducer = producer;
        }
        return deadLetterProducer;
    }

    void reportReadiness(HealthReport.HealthReportBuilder builder) {
        if (!config.getHealthEnabled()) {
            return;
        }
        if (startFailure != null) {
            builder.add(channel, false, "consumer failed to start: " + startFailure.getMessage());
        } else if (!started) {
            builder.add(channel, false, "consumer not started");
        } else if (probe.reachable() == null) {
            builder.add(channel, false, "name server unreachable: " + probe.describe());
        } else {
            builder.add(channel, true);
        }
    }

    /**
     * Graceful stop: stop fetching, let the messages in flight finish (bounded by
     * {@code shutdown-timeout}), then shut the consumer down. Nothing unprocessed is acknowledged.
     */
    void close() {
        if (stopping) {
            return;
        }
        stopping = true;
        if (started) {
            consumer.suspend();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.getShutdownTimeout());
            while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (inFlight.get() > 0) {
                LOG.warnf("Channel %s: %d message batch(es) still in flight after %d ms; they will be redelivered",
                        channel, inFlight.get(), config.getShutdownTimeout());
            }
            consumer.shutdown();
        }
        synchronized (this) {
            if (deadLetterProducer != null) {
                deadLetterProducer.shutdown();
            }
        }
        if (emitter != null) {
            emitter.complete();
        }
    }
}
