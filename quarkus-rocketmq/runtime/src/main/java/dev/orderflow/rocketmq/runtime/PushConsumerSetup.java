package dev.orderflow.rocketmq.runtime;

import java.util.List;
import java.util.Optional;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Builds an incoming channel's push consumer from its attributes: group, credentials, threads,
 * pull sizes and thresholds, attempts, where a new group starts, the subscription, and the listener
 * that turns the source's {@link Verdict} into the client's status for the channel's consume mode.
 * An attribute of the consumer out of range is refused here, naming the channel (the batch-combining
 * ones are the source's).
 */
final class PushConsumerSetup {

    /** What the listener asks of the source for each delivery. */
    interface Deliveries {
        /** Hands the messages to the application and waits for its answer. */
        Verdict consume(List<MessageExt> msgs);

        /** Waits until the source dropped its process queues; true when it did. */
        boolean awaitRelease();

        /** Clears an interrupt left by the client's shutdown before the listener answers. */
        void clearInterrupt();
    }

    private PushConsumerSetup() {
    }

    /** A consumer of {@code group} subscribed to {@code topic}, not started, whose listener asks {@code deliveries}. */
    static DefaultMQPushConsumer create(RocketMQConnectorIncomingConfiguration config, String group, String topic,
            ClientCredentials credentials, Deliveries deliveries) {
        String channel = config.getChannel();
        boolean batch = config.getBatch();
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group, credentials.rpcHook());
        c.setNamesrvAddr(config.getNameServer());
        c.setInstanceName(config.getInstanceName()
                .orElse(RocketMQMessages.sharedInstanceName(config.getNameServer(), credentials)));
        int threads = config.getConsumeThreads();
        c.setConsumeThreadMin(threads);
        c.setConsumeThreadMax(threads);
        c.setConsumeMessageBatchMaxSize(batch ? config.getBatchSize() : 1);
        c.setPullBatchSize(Math.max(config.getPullBatchSize(), batch ? config.getBatchSize() : 1));
        c.setPullInterval(checked(channel, "pull-interval", config.getPullInterval(), 0, Long.MAX_VALUE, " milliseconds"));
        limitMessagesHeld(config, c);
        c.setMaxReconsumeTimes(config.getMaxReconsumeTimes());
        c.setSuspendCurrentQueueTimeMillis(config.getOrderlyRetryDelay());
        c.setConsumeFromWhere(switch (config.getConsumeFrom()) {
            case "first" -> ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET;
            case "last" -> ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET;
            default -> throw new IllegalArgumentException("Channel " + channel + ": consume-from must be 'first' or "
                    + "'last', not '" + config.getConsumeFrom() + "'");
        });
        // The source drains before it shuts the client down; by then every consumer thread is about
        // to return, so the client's own wait only covers stragglers.
        c.setAwaitTerminationMillisWhenShutdown(Math.min(config.getShutdownTimeout(), 5000));
        try {
            c.subscribe(topic, config.getTagExpression());
        } catch (MQClientException e) {
            throw new IllegalArgumentException("Channel " + channel + ": cannot subscribe to " + topic + " with '"
                    + config.getTagExpression() + "'", e);
        }
        int retryDelayLevel = config.getRetryDelayLevel();
        switch (config.getConsumeMode()) {
            case "concurrently" -> c.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
                ConsumeConcurrentlyStatus status = switch (deliveries.consume(msgs)) {
                    case DONE -> ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                    case REDELIVER -> {
                        if (retryDelayLevel > 0) {
                            context.setDelayLevelWhenNextConsume(retryDelayLevel);
                        }
                        yield ConsumeConcurrentlyStatus.RECONSUME_LATER;
                    }
                    // Once the process queues are dropped the client ignores this answer: no
                    // send-back, no offset update. Only if they could not be dropped in time does
                    // the message go to the retry topic (redelivered, one attempt spent).
                    case RELEASE -> {
                        deliveries.awaitRelease();
                        yield ConsumeConcurrentlyStatus.RECONSUME_LATER;
                    }
                };
                deliveries.clearInterrupt();
                return status;
            });
            case "orderly" -> c.registerMessageListener((MessageListenerOrderly) (msgs, context) -> {
                ConsumeOrderlyStatus status = switch (deliveries.consume(msgs)) {
                    case DONE -> ConsumeOrderlyStatus.SUCCESS;
                    case REDELIVER -> ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT;
                    // Without auto-commit the client neither commits nor counts an attempt:
                    // SUCCESS leaves the (dropped) queue's messages uncommitted, ROLLBACK puts
                    // them back for a later try when the queue could not be dropped.
                    case RELEASE -> {
                        boolean dropped = deliveries.awaitRelease();
                        context.setAutoCommit(false);
                        yield dropped ? ConsumeOrderlyStatus.SUCCESS : ConsumeOrderlyStatus.ROLLBACK;
                    }
                };
                deliveries.clearInterrupt();
                return status;
            });
            default -> throw new IllegalArgumentException("Channel " + channel + ": consume-mode must be "
                    + "'concurrently' or 'orderly', not '" + config.getConsumeMode() + "'");
        }
        return c;
    }

    /**
     * {@code value} of {@code attribute}, refused at start unless it lies in [min, max] (max
     * {@link Long#MAX_VALUE}: no upper bound); {@code unit} follows the range in the message.
     */
    static long checked(String channel, String attribute, long value, long min, long max, String unit) {
        if (value < min || value > max) {
            String range = max == Long.MAX_VALUE ? min + " or more" : min + " to " + max;
            throw new IllegalArgumentException("Channel " + channel + ": " + attribute + " must be " + range + unit
                    + ", not " + value);
        }
        return value;
    }

    /**
     * How many pulled, unconsumed messages the consumer may hold before its pulls pause: per queue,
     * per channel (RocketMQ derives the per-queue value from it at every rebalance), or RocketMQ's
     * default when neither is set.
     */
    private static void limitMessagesHeld(RocketMQConnectorIncomingConfiguration config, DefaultMQPushConsumer c) {
        String channel = config.getChannel();
        Optional<Integer> perQueue = config.getPullThresholdForQueue();
        Optional<Integer> perTopic = config.getPullThresholdForTopic();
        if (perQueue.isPresent() && perTopic.isPresent()) {
            // RocketMQ would silently replace the first with the second at the first rebalance.
            throw new IllegalArgumentException("Channel " + channel
                    + ": set pull-threshold-for-queue or pull-threshold-for-topic, not both");
        }
        // RocketMQ's own check of the consumer's settings allows these ranges.
        perQueue.ifPresent(messages -> c.setPullThresholdForQueue(
                (int) checked(channel, "pull-threshold-for-queue", messages, 1, 65535, " messages")));
        perTopic.ifPresent(messages -> c.setPullThresholdForTopic(
                (int) checked(channel, "pull-threshold-for-topic", messages, 1, 6553500, " messages")));
    }
}
