package dev.orderflow.rocketmq.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.common.message.MessageExt;

import dev.orderflow.rocketmq.RocketMQBatchFailure;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;

/**
 * Settles what the application failed, for one incoming channel: a transient failure is redelivered
 * with back-off; a permanent failure ({@link RocketMQPermanentFailure}), or a transient one on the
 * last attempt ({@code max-reconsume-times}), is settled by the channel's {@link FailureStrategy}
 * (dead-lettered, ignored, or the channel stops); a batch's failed elements
 * ({@link RocketMQBatchFailure}) are settled one by one.
 */
final class Settlement {

    // As the source: an operator follows one channel's consumer under one category.
    private static final ConnectorLog LOG = ConnectorLog.of(RocketMQSource.class);

    private final String channel;
    private final boolean batch;
    private final boolean orderly;
    private final int maxReconsumeTimes;
    private final int retryDelayLevel;
    private final FailureStrategy failureStrategy;
    private final DeadLetterWriter deadLetters;
    private final ChannelMetrics metrics;
    private final DefaultMQPushConsumer consumer;
    /** Stops the channel ({@link FailureStrategy#FAIL}), given why. */
    private final Consumer<String> halt;

    Settlement(RocketMQConnectorIncomingConfiguration config, FailureStrategy failureStrategy,
            DeadLetterWriter deadLetters, ChannelMetrics metrics, DefaultMQPushConsumer consumer, Consumer<String> halt) {
        this.channel = config.getChannel();
        this.batch = config.getBatch();
        this.orderly = "orderly".equals(config.getConsumeMode());
        this.maxReconsumeTimes = config.getMaxReconsumeTimes();
        this.retryDelayLevel = config.getRetryDelayLevel();
        this.failureStrategy = failureStrategy;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.consumer = consumer;
        this.halt = halt;
    }

    /**
     * Settles {@code msgs}, which the application failed with {@code failure}.
     *
     * @return DONE when settled for good (dead-lettered, ignored) or element by element; REDELIVER;
     *         RELEASE when the channel stopped
     */
    Verdict afterFailure(List<MessageExt> msgs, Throwable failure) {
        if (batch && failure instanceof RocketMQBatchFailure partial) {
            return settleElements(msgs, partial);
        }
        RocketMQPermanentFailure permanent = RocketMQPermanentFailure.find(failure);
        boolean exhausted = msgs.stream().anyMatch(m -> m.getReconsumeTimes() >= maxReconsumeTimes);
        if (permanent != null || exhausted) {
            Verdict settled = settleForGood(msgs, permanent, failure);
            if (settled != Verdict.REDELIVER) {
                return settled;
            }
        }
        metrics.retried(msgs.size());
        LOG.debugf(failure, "Channel %s: redelivering %d message(s) (attempt %d)", channel, msgs.size(),
                msgs.get(0).getReconsumeTimes() + 1);
        return Verdict.REDELIVER;
    }

    /**
     * Settles messages that failed for good (a permanent failure, or the last attempt) by the
     * channel's {@link FailureStrategy}.
     *
     * @param permanent the permanent failure, or null when the last attempt failed with {@code cause}
     * @return DONE when dead-lettered or ignored; REDELIVER when the DLQ write failed; RELEASE when
     *         the channel stopped
     */
    private Verdict settleForGood(List<MessageExt> msgs, RocketMQPermanentFailure permanent, Throwable cause) {
        String failureClass = permanent != null ? permanent.failureClass() : RocketMQDeadLetters.SYSTEM_CLASS;
        String reason = permanent != null ? permanent.getMessage() : String.valueOf(cause);
        switch (failureStrategy) {
            case DEAD_LETTER_QUEUE -> {
                if (!deadLetters.write(msgs, failureClass, reason)) {
                    return Verdict.REDELIVER;
                }
                metrics.deadLettered(msgs.size());
                return Verdict.DONE;
            }
            case IGNORE -> {
                LOG.dropped(channel, msgs.size(), keysOf(msgs), msgs.get(0).getReconsumeTimes() + 1, failureClass,
                        reason);
                metrics.ignored(msgs.size());
                return Verdict.DONE;
            }
            default -> {
                halt.accept(keysOf(msgs) + " failed for good (" + failureClass + ": " + reason + ")");
                return Verdict.RELEASE;
            }
        }
    }

    private static List<String> keysOf(List<MessageExt> msgs) {
        return msgs.stream().map(MessageExt::getKeys).toList();
    }

    /**
     * Settles the failed elements of a batch one by one ({@link RocketMQBatchFailure}): permanent
     * or exhausted ones by the {@link FailureStrategy}, the other ones sent back for redelivery; the
     * rest is done.
     *
     * @return DONE when every failed element was settled; REDELIVER (the whole batch) when one
     *         could not be, or in orderly mode when an element must be retried; RELEASE when the
     *         channel stopped
     */
    private Verdict settleElements(List<MessageExt> msgs, RocketMQBatchFailure partial) {
        List<MessageExt> redeliver = new ArrayList<>();
        List<Integer> forGood = new ArrayList<>();
        for (Map.Entry<Integer, Throwable> failed : partial.failures().entrySet()) {
            int index = failed.getKey();
            if (index < 0 || index >= msgs.size()) {
                throw new IllegalArgumentException("Channel " + channel + ": batch failure names element " + index
                        + " of a batch of " + msgs.size());
            }
            MessageExt m = msgs.get(index);
            if (RocketMQPermanentFailure.find(failed.getValue()) != null || m.getReconsumeTimes() >= maxReconsumeTimes) {
                forGood.add(index);
            } else {
                redeliver.add(m);
            }
        }
        if (orderly && !redeliver.isEmpty()) {
            // An orderly queue cannot skip ahead: the whole batch is retried in place.
            metrics.retried(msgs.size());
            return Verdict.REDELIVER;
        }
        for (int index : forGood) {
            Throwable cause = partial.failures().get(index);
            Verdict settled = settleForGood(List.of(msgs.get(index)), RocketMQPermanentFailure.find(cause), cause);
            if (settled == Verdict.REDELIVER) {
                metrics.retried(msgs.size());
            }
            if (settled != Verdict.DONE) {
                return settled;
            }
        }
        for (MessageExt m : redeliver) {
            try {
                consumer.sendMessageBack(m, retryDelayLevel, m.getBrokerName());
            } catch (Exception e) {
                LOG.sendBackFailed(e, channel, m.getMsgId());
                metrics.retried(msgs.size());
                return Verdict.REDELIVER;
            }
        }
        metrics.retried(redeliver.size());
        metrics.acked(msgs.size() - forGood.size() - redeliver.size());
        LOG.debugf("Channel %s: batch of %d settled element by element: %d failed for good (%s), %d sent back",
                channel, msgs.size(), forGood.size(), failureStrategy, redeliver.size());
        return Verdict.DONE;
    }
}
