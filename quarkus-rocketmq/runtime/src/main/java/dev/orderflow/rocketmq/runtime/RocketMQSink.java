package dev.orderflow.rocketmq.runtime;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.eclipse.microprofile.reactive.messaging.Message;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rocketmq.OutgoingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQSendException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.reactive.messaging.health.HealthReport;
import io.smallrye.reactive.messaging.providers.helpers.MultiUtils;

/**
 * An outgoing channel: sends each message with the channel's send mode and completes it (ack)
 * when the broker stored it or fails it (nack) otherwise. Messages are sent one after the
 * other, in the order the application emitted them. A message with
 * {@link OutgoingRocketMQBatchMetadata} is sent as one RocketMQ batch (one request, one result)
 * and completed as a whole.
 */
public class RocketMQSink {

    private static final ConnectorLog LOG = ConnectorLog.of(RocketMQSink.class);

    /** Queue by hash of the sharding key, so one key always lands on one queue. */
    private static final MessageQueueSelector BY_SHARDING_KEY = (queues, msg, key) -> queues
            .get(Math.floorMod(key.hashCode(), queues.size()));

    /**
     * Messages the sending thread of a sync or oneway channel takes from the emitter ahead of
     * sending them (its queue): small, so unsent messages stay in the emitter's own buffer.
     */
    private static final int HANDED_OVER_MESSAGES = 16;

    private final RocketMQConnectorOutgoingConfiguration config;
    private final ObjectMapper objectMapper;
    private final String channel;
    private final String topic;
    /** Read once: the generated configuration looks a value up in every config source on each call. */
    private final String defaultTag;
    private final SendMode mode;
    private final ChannelMetrics metrics;
    private final NameServerProbe probe;
    private final DefaultMQProducer producer;
    private final Flow.Subscriber<? extends Message<?>> subscriber;
    private final ClientCredentials credentials;
    private volatile Throwable startFailure;

    enum SendMode {
        SYNC, ASYNC, ONEWAY
    }

    RocketMQSink(RocketMQConnectorOutgoingConfiguration config, ObjectMapper objectMapper) {
        this.config = config;
        this.objectMapper = objectMapper;
        this.channel = config.getChannel();
        this.topic = config.getTopic().orElse(channel);
        this.defaultTag = config.getTag().orElse(null);
        this.mode = switch (config.getSendMode()) {
            case "sync" -> SendMode.SYNC;
            case "async" -> SendMode.ASYNC;
            case "oneway" -> SendMode.ONEWAY;
            default -> throw new IllegalArgumentException("Channel " + channel + ": send-mode must be sync, async or "
                    + "oneway, not '" + config.getSendMode() + "'");
        };
        this.metrics = new ChannelMetrics(channel);
        this.probe = new NameServerProbe(config.getNameServer(), config.getHealthTimeout());
        this.credentials = ClientCredentials.of(config.getAccessKey(), config.getSecretKey(), "Channel " + channel);
        this.producer = createProducer();
        this.subscriber = MultiUtils.via(multi -> onSendingThread(multi)
                .onItem().transformToUniAndConcatenate(this::send)
                .onFailure().invoke(f -> LOG.outgoingStreamFailed(f, channel)));
    }

    /**
     * Sync and oneway sends block the calling thread, so they run on a worker thread that drains
     * the emitted messages one after the other: the thread takes the next message as soon as the
     * previous one is acked or nacked, instead of handing every message to a new worker task (that
     * hand-off per message costs about as much as the send itself, see the benchmark README).
     * The emitting thread never blocks. Async sends do not block and need no thread of their own.
     */
    private Multi<? extends Message<?>> onSendingThread(Multi<? extends Message<?>> messages) {
        return mode == SendMode.ASYNC ? messages
                : messages.emitOn(Infrastructure.getDefaultWorkerPool(), HANDED_OVER_MESSAGES);
    }

    /** A plain producer; a transactional channel's producer is created by the transactions support. */
    protected DefaultMQProducer createProducer() {
        DefaultMQProducer p = new DefaultMQProducer(config.getProducerGroup().orElse(channel), credentials.rpcHook());
        configure(p);
        start(p);
        return p;
    }

    protected final void configure(DefaultMQProducer p) {
        RocketMQProducers.prepare(p, config.getNameServer(),
                config.getInstanceName().orElse(RocketMQMessages.sharedInstanceName(config.getNameServer(), credentials)));
        p.setSendMsgTimeout(config.getSendTimeout());
        p.setRetryTimesWhenSendFailed(config.getRetries());
        p.setRetryTimesWhenSendAsyncFailed(config.getRetries());
    }

    protected final void start(DefaultMQProducer p) {
        try {
            p.start();
            checkCredentials(p);
            LOG.sending(channel, topic, config.getSendMode(), p.getProducerGroup(), config.getNameServer());
        } catch (MQClientException e) {
            startFailure = e;
            throw new IllegalStateException("Channel " + channel + ": producer failed to start", e);
        }
    }

    /** The producer signs with the channel's credentials, not with those of an instance it joined. */
    private void checkCredentials(DefaultMQProducer p) {
        try {
            credentials.checkUsedBy(p.getDefaultMQProducerImpl().getMqClientFactory(), "Channel " + channel);
        } catch (IllegalStateException e) {
            startFailure = e;
            p.shutdown();
            throw e;
        }
    }

    public String channel() {
        return channel;
    }

    public String topic() {
        return topic;
    }

    public RocketMQConnectorOutgoingConfiguration configuration() {
        return config;
    }

    public DefaultMQProducer producer() {
        return producer;
    }

    Flow.Subscriber<? extends Message<?>> subscriber() {
        return subscriber;
    }

    /** The RocketMQ message for {@code message} with this channel's topic and tag defaults. */
    public org.apache.rocketmq.common.message.Message toRocketMQ(Message<?> message) {
        return RocketMQMessages.toRocketMQ(message, topic, defaultTag, objectMapper);
    }

    private Uni<Void> send(Message<?> message) {
        OutgoingRocketMQBatchMetadata batch = message.getMetadata(OutgoingRocketMQBatchMetadata.class).orElse(null);
        if (batch != null) {
            return sendBatch(message, batch);
        }
        org.apache.rocketmq.common.message.Message msg;
        try {
            msg = toRocketMQ(message);
        } catch (RuntimeException e) {
            metrics.sendFailed();
            return Uni.createFrom().completionStage(message.nack(e));
        }
        String shardingKey = message.getMetadata(OutgoingRocketMQMetadata.class)
                .map(OutgoingRocketMQMetadata::shardingKey).orElse(null);
        long start = System.nanoTime();
        return switch (mode) {
            case SYNC -> Uni.createFrom().item(() -> sendSync(msg, shardingKey))
                    .onItemOrFailure().transformToUni((result, failure) -> complete(message, result, failure, start));
            case ASYNC -> Uni.createFrom().<SendResult> emitter(e -> sendAsync(msg, shardingKey, completing(e)))
                    .onItemOrFailure().transformToUni((result, failure) -> complete(message, result, failure, start));
            case ONEWAY -> Uni.createFrom().item(() -> {
                sendOneway(msg, shardingKey);
                return (SendResult) null;
            }).onItemOrFailure().transformToUni((result, failure) -> complete(message, null, failure, start));
        };
    }

    /** A send callback that completes or fails {@code emitter} with the client's answer. */
    private static SendCallback completing(UniEmitter<? super SendResult> emitter) {
        return new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                emitter.complete(result);
            }

            @Override
            public void onException(Throwable failure) {
                emitter.fail(failure);
            }
        };
    }

    /** One RocketMQ batch: one request and one SendResult for every element, stored all or none. */
    private Uni<Void> sendBatch(Message<?> message, OutgoingRocketMQBatchMetadata batch) {
        List<org.apache.rocketmq.common.message.Message> msgs;
        try {
            if (mode == SendMode.ONEWAY) {
                // The client has no oneway batch send, and a silent sync send would change the mode's promise.
                throw new IllegalArgumentException("Channel " + channel + ": a oneway channel cannot send batches "
                        + "(RocketMQ has no oneway batch send); use a sync or async channel");
            }
            msgs = RocketMQMessages.toRocketMQBatch(message, batch, topic, defaultTag, objectMapper);
        } catch (RuntimeException e) {
            metrics.sendFailed();
            return Uni.createFrom().completionStage(message.nack(e));
        }
        long start = System.nanoTime();
        if (mode == SendMode.SYNC) {
            return Uni.createFrom().item(() -> sendBatchSync(msgs))
                    .onItemOrFailure().transformToUni((result, failure) -> complete(message, result, failure, start,
                            msgs.size()));
        }
        return Uni.createFrom().<SendResult> emitter(e -> sendBatchAsync(msgs, completing(e))).onItemOrFailure().transformToUni((result, failure) -> complete(message, result, failure, start,
                msgs.size()));
    }

    private SendResult sendBatchSync(List<org.apache.rocketmq.common.message.Message> msgs) {
        try {
            return producer.send(msgs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RocketMQSendException("Channel " + channel + ": interrupted while sending a batch", e);
        } catch (Exception e) {
            throw new RocketMQSendException(batchFailure(msgs, e), e);
        }
    }

    private void sendBatchAsync(List<org.apache.rocketmq.common.message.Message> msgs, SendCallback callback) {
        try {
            producer.send(msgs, callback);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.onException(e);
        } catch (Exception e) {
            callback.onException(new RocketMQSendException(batchFailure(msgs, e), e));
        }
    }

    /**
     * The client reports an element it refuses (e.g. an empty body) as "Failed to initiate the
     * MessageBatch" with the reason only in the cause: name both.
     */
    private String batchFailure(List<org.apache.rocketmq.common.message.Message> msgs, Exception e) {
        String reason = e.getMessage();
        if (e.getCause() != null && e.getCause().getMessage() != null) {
            reason += " (" + e.getCause().getMessage() + ")";
        }
        return "Channel " + channel + ": send of a batch of " + msgs.size() + " messages to " + msgs.get(0).getTopic()
                + " failed: " + reason;
    }

    private SendResult sendSync(org.apache.rocketmq.common.message.Message msg, String shardingKey) {
        try {
            return shardingKey == null ? producer.send(msg) : producer.send(msg, BY_SHARDING_KEY, shardingKey);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RocketMQSendException("Channel " + channel + ": interrupted while sending", e);
        } catch (Exception e) {
            throw new RocketMQSendException("Channel " + channel + ": send to " + msg.getTopic() + " failed: "
                    + e.getMessage(), e);
        }
    }

    private void sendAsync(org.apache.rocketmq.common.message.Message msg, String shardingKey, SendCallback callback) {
        try {
            if (shardingKey == null) {
                producer.send(msg, callback);
            } else {
                producer.send(msg, BY_SHARDING_KEY, shardingKey, callback);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.onException(e);
        } catch (Exception e) {
            callback.onException(e);
        }
    }

    private void sendOneway(org.apache.rocketmq.common.message.Message msg, String shardingKey) {
        try {
            if (shardingKey == null) {
                producer.sendOneway(msg);
            } else {
                producer.sendOneway(msg, BY_SHARDING_KEY, shardingKey);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RocketMQSendException("Channel " + channel + ": interrupted while sending", e);
        } catch (Exception e) {
            throw new RocketMQSendException("Channel " + channel + ": oneway send failed: " + e.getMessage(), e);
        }
    }

    private Uni<Void> complete(Message<?> message, SendResult result, Throwable failure, long start) {
        return complete(message, result, failure, start, 1);
    }

    /** {@code count}: the RocketMQ messages behind {@code message} (a batch's elements), for the sent meter. */
    private Uni<Void> complete(Message<?> message, SendResult result, Throwable failure, long start, int count) {
        CompletionStage<Void> done;
        if (failure != null) {
            metrics.sendFailed();
            done = message.nack(failure instanceof RocketMQSendException ? failure
                    : new RocketMQSendException("Channel " + channel + ": send failed: " + failure.getMessage(), failure));
        } else if (result != null && result.getSendStatus() != SendStatus.SEND_OK) {
            metrics.sendFailed();
            done = message.nack(new RocketMQSendException("Channel " + channel + ": broker answered "
                    + result.getSendStatus() + " for " + result.getMsgId()));
        } else {
            metrics.sent(start, count);
            done = message.ack();
        }
        return Uni.createFrom().completionStage(done != null ? done : CompletableFuture.completedFuture(null));
    }

    void reportReadiness(HealthReport.HealthReportBuilder builder) {
        if (!config.getHealthEnabled()) {
            return;
        }
        if (startFailure != null) {
            builder.add(channel, false, "producer failed to start: " + startFailure.getMessage());
        } else if (probe.reachable() == null) {
            builder.add(channel, false, "name server unreachable: " + probe.describe());
        } else {
            builder.add(channel, true);
        }
    }

    void close() {
        producer.shutdown();
        metrics.close();
    }

}
