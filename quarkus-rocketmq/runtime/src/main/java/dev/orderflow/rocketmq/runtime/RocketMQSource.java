package dev.orderflow.rocketmq.runtime;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.consumer.ProcessQueue;
import org.apache.rocketmq.common.message.MessageExt;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import dev.orderflow.rocketmq.IncomingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.smallrye.reactive.messaging.health.HealthReport;

/**
 * An incoming channel: a push consumer whose listener hands each message (or batch) to the
 * application and reports success to the broker only after the application acknowledged it.
 *
 * <p>Outcomes: ack → CONSUME_SUCCESS; any nack but a {@link RocketMQPermanentFailure} (or no
 * answer within {@code processing-timeout}) → redelivered with back-off. A permanent failure, or a
 * transient one once {@code max-reconsume-times} is reached, is settled by the channel's
 * {@link FailureStrategy}: dead-lettered (the default), ignored, or the channel stops. The consumer
 * thread waits for the outcome, so the messages in flight are bounded by the consumer threads.
 *
 * <p>This class hands messages over and owns the channel's lifecycle; {@link PushConsumerSetup}
 * builds the consumer from the channel's attributes, {@link Settlement} settles failures and
 * {@link DeadLetterWriter} writes dead letters.
 *
 * <p>Shutdown ({@link #close()}) stops fetching, lets the messages the application holds finish
 * (bounded by {@code shutdown-timeout}) and then gives everything else back to the broker
 * untouched: messages fetched but not handed over, and messages the application did not finish
 * in time, are neither acknowledged nor sent to the retry topic (which would cost them one of
 * their attempts and, on the last one, send them to the DLQ unprocessed). Their offsets stay
 * uncommitted, so the next consumer of the group receives them again from their queue.
 */
public class RocketMQSource {

    private static final ConnectorLog LOG = ConnectorLog.of(RocketMQSource.class);
    /** What a channel needs for its deliveries to be combined into batches ({@link BatchCombiner}). */
    private static final String COMBINING_NEEDS = "batch=true, consume-mode concurrently and batch-concurrency of 1 or more";
    /**
     * After the last handed-over message finished, the client still applies its result (offset
     * update) on the consumer thread. Waiting this long before the process queues are dropped lets
     * it, so that a message acknowledged just before shutdown is not redelivered.
     */
    private static final long RESULT_SETTLE_MILLIS = 200;

    private final RocketMQConnectorIncomingConfiguration config;
    // Read once: the generated configuration class asks every config source on each call, which
    // costs 14 % of a consumer's CPU when done per delivered message.
    private final boolean batch;
    private final long processingTimeoutMillis;
    /** Combines waiting deliveries into full batches; null unless {@code batch-concurrency} asks for it. */
    private final BatchCombiner combiner;
    private final String channel;
    private final String group;
    private final String topic;
    private final ClientCredentials credentials;
    private final DefaultMQPushConsumer consumer;
    private final DeadLetterWriter deadLetters;
    private final Settlement settlement;
    private final ChannelMetrics metrics;
    private final NameServerProbe probe;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Set<CompletableFuture<Throwable>> pending = ConcurrentHashMap.newKeySet();
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Multi<org.eclipse.microprofile.reactive.messaging.Message<?>> stream;

    private volatile MultiEmitter<? super org.eclipse.microprofile.reactive.messaging.Message<?>> emitter;
    private volatile boolean started;
    private volatile boolean stopping;
    private volatile boolean queuesReleased;
    private volatile Throwable startFailure;
    /** Why the channel stopped under {@link FailureStrategy#FAIL}; null while it runs. */
    private volatile String halted;

    /** Completes the outcome of a message the application still holds when the source gives it back. */
    private static final class ReleasedAtShutdown extends RuntimeException {
        ReleasedAtShutdown(String channel) {
            super("Channel " + channel + " stopped before the application finished the message", null, false, false);
        }
    }

    /**
     * Creates the source of an incoming channel. The connector creates one per channel; the
     * constructor is public so that a source can be run and stopped on its own (tests, tools).
     * Nothing is fetched before {@link #stream()} is subscribed to.
     */
    public RocketMQSource(RocketMQConnectorIncomingConfiguration config) {
        this.config = config;
        this.batch = config.getBatch();
        this.processingTimeoutMillis = config.getProcessingTimeout();
        FailureStrategy failureStrategy = FailureStrategy.of(config.getFailureStrategy(), config.getChannel());
        boolean orderly = "orderly".equals(config.getConsumeMode());
        this.channel = config.getChannel();
        int batchConcurrency = (int) PushConsumerSetup.checked(channel, "batch-concurrency", config.getBatchConcurrency(),
                0, Long.MAX_VALUE, "");
        long batchLinger = PushConsumerSetup.checked(channel, "batch-linger", config.getBatchLinger(), 0, Long.MAX_VALUE,
                "");
        boolean combining = batch && !orderly && batchConcurrency > 0;
        if (!combining) {
            warnIfIgnored(batchConcurrency, batchLinger);
        }
        // 0: the same as batch-concurrency.
        int backlogConcurrency = batchConcurrency;
        if (config.getBatchBacklogConcurrency() != 0) {
            if (!combining) {
                throw new IllegalArgumentException("Channel " + channel + ": batch-backlog-concurrency needs "
                        + COMBINING_NEEDS);
            }
            backlogConcurrency = (int) PushConsumerSetup.checked(channel, "batch-backlog-concurrency",
                    config.getBatchBacklogConcurrency(), batchConcurrency, Long.MAX_VALUE,
                    " (0, or at least batch-concurrency)");
        }
        this.combiner = combining
                ? new BatchCombiner(config.getBatchSize(), batchConcurrency, backlogConcurrency, Duration.ofMillis(batchLinger),
                        this::deliver, () -> new ReleasedAtShutdown(channel))
                : null;
        this.group = config.getConsumerGroup().orElse(channel);
        this.topic = config.getTopic().orElse(channel);
        this.metrics = new ChannelMetrics(channel, batch);
        this.probe = new NameServerProbe(config.getNameServer(), config.getHealthTimeout());
        this.credentials = ClientCredentials.of(config.getAccessKey(), config.getSecretKey(), "Channel " + channel);
        this.consumer = PushConsumerSetup.create(config, group, topic, credentials, new PushConsumerSetup.Deliveries() {
            @Override
            public Verdict consume(List<MessageExt> msgs) {
                return RocketMQSource.this.consume(msgs);
            }

            @Override
            public boolean awaitRelease() {
                return RocketMQSource.this.awaitRelease();
            }

            @Override
            public void clearInterrupt() {
                RocketMQSource.this.clearInterrupt();
            }
        });
        this.deadLetters = new DeadLetterWriter(channel, group, config.getNameServer(), credentials,
                consumer.getInstanceName());
        this.settlement = new Settlement(config, failureStrategy, deadLetters, metrics, consumer, this::halt);
        metrics.cachedMessages(this::cachedMessages);
        this.stream = Multi.createFrom()
                .<org.eclipse.microprofile.reactive.messaging.Message<?>> emitter(this::start, BackPressureStrategy.BUFFER);
    }

    /**
     * Warns about batch-concurrency and batch-linger set on a channel whose batches are not combined,
     * where they do nothing. Not refused (unlike batch-backlog-concurrency), because deployments may
     * already carry them and did not fail before.
     */
    private void warnIfIgnored(int batchConcurrency, long batchLinger) {
        List<String> ignored = new ArrayList<>(2);
        if (batchConcurrency > 0) {
            ignored.add("batch-concurrency=" + batchConcurrency);
        }
        if (batchLinger > 0) {
            ignored.add("batch-linger=" + batchLinger);
        }
        if (!ignored.isEmpty()) {
            LOG.batchSettingsIgnored(channel, String.join(" and ", ignored), COMBINING_NEEDS);
        }
    }

    /** The messages of this channel; subscribing starts the consumer. */
    public Multi<org.eclipse.microprofile.reactive.messaging.Message<?>> stream() {
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

    /**
     * Messages this channel's queues hold in the client: pulled, not yet consumed (its own and its
     * retry topic's queues). Each queue's pulls pause above {@code pull-threshold-for-queue}, or above
     * its share of {@code pull-threshold-for-topic}.
     */
    long cachedMessages() {
        // The process queues, through the accessor releaseQueues() uses too.
        return consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().values().stream()
                .mapToLong(queue -> queue.getMsgCount().get()).sum();
    }

    /** Starts consuming once the application subscribed: nothing is fetched that nobody can take. */
    private void start(MultiEmitter<? super org.eclipse.microprofile.reactive.messaging.Message<?>> e) {
        this.emitter = e;
        try {
            consumer.start();
            checkCredentials();
            started = true;
            LOG.consuming(channel, topic, config.getTagExpression(), group, config.getConsumeMode(), config.getNameServer());
        } catch (MQClientException | IllegalStateException ex) {
            startFailure = ex;
            e.fail(ex);
        }
    }

    /** The consumer signs with the channel's credentials, not with those of an instance it joined. */
    private void checkCredentials() {
        try {
            credentials.checkUsedBy(consumer.getDefaultMQPushConsumerImpl().getmQClientFactory(), "Channel " + channel);
        } catch (IllegalStateException e) {
            consumer.shutdown();
            throw e;
        }
    }

    /**
     * Hands {@code msgs} to the application and waits for its answer.
     *
     * @return what to tell the client: finished, redeliver, or give back untouched (stopping)
     */
    private Verdict consume(List<MessageExt> msgs) {
        // Counted before the check so that close() either sees this delivery in flight or this
        // thread sees close()'s stopping flag: never neither.
        inFlight.incrementAndGet();
        try {
            if (stopping || halted != null || emitter == null || emitter.isCancelled()) {
                return Verdict.RELEASE;
            }
            Throwable failure = combiner != null ? deliverCombined(msgs) : deliver(msgs);
            if (failure == null) {
                metrics.acked(msgs.size());
                return Verdict.DONE;
            }
            if (failure instanceof ReleasedAtShutdown) {
                return Verdict.RELEASE;
            }
            return settlement.afterFailure(msgs, failure);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /**
     * Stops the channel ({@link FailureStrategy#FAIL}): no more pulls, health down; every consumer
     * thread that comes back with a delivery gives it back untouched and waits for {@link #close()}.
     */
    private synchronized void halt(String why) {
        if (halted != null) {
            return;
        }
        halted = why;
        LOG.halted(channel, why);
        consumer.suspend();
    }

    /**
     * Clears a pending interrupt before the listener answers the client. The only interrupter is
     * the client's own consumer-thread shutdown, and its purpose (stop waiting for the
     * application) is served by then. Left pending, it breaks the client's handling of the answer:
     * {@code ProcessQueue.containsMessage} fails under an interrupt, the client then skips the
     * send-back of a RECONSUME_LATER message and commits its offset as if it had been consumed,
     * which loses the message (seen with RocketMQ 5.3.3).
     */
    private void clearInterrupt() {
        if (Thread.interrupted()) {
            LOG.debugf("Channel %s: consumer thread interrupted by the client's shutdown; interrupt cleared before "
                    + "answering so that the answer is applied", channel);
        }
    }

    /**
     * Waits until {@link #close()} dropped the process queues, so that the client ignores what
     * the listener answers for a message given back. Bounded, unless the channel was stopped by
     * {@link FailureStrategy#FAIL}.
     *
     * @return true when the queues were dropped; false when this waited its bound in vain (the
     *         application cancelled its subscription without the source being closed)
     */
    private boolean awaitRelease() {
        try {
            if (halted != null) {
                // Stopped for good: hold the delivery until close(), however long that takes.
                released.await();
                return queuesReleased;
            }
            if (released.await(config.getShutdownTimeout() + RESULT_SETTLE_MILLIS + 5000, TimeUnit.MILLISECONDS)) {
                return queuesReleased;
            }
            LOG.abandonedWithoutClose(channel);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return queuesReleased;
        }
    }

    /** Delivers the messages within a combined batch and waits for their share of its answer. */
    private Throwable deliverCombined(List<MessageExt> msgs) {
        try {
            return combiner.deliver(msgs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // Interrupted by the client's own shutdown: the messages were not finished.
            return new ReleasedAtShutdown(channel);
        }
    }

    /** Emits the messages and waits for ack (null) or nack (the cause). */
    private Throwable deliver(List<MessageExt> msgs) {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        org.eclipse.microprofile.reactive.messaging.Message<?> message;
        if (batch) {
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
        pending.add(outcome);
        try {
            if (queuesReleased) {
                return new ReleasedAtShutdown(channel);
            }
            metrics.consumed(msgs.size());
            long handedOver = System.nanoTime();
            emitter.emit(message);
            Throwable answer = outcome.get(processingTimeoutMillis, TimeUnit.MILLISECONDS);
            metrics.answered(handedOver);
            return answer;
        } catch (TimeoutException e) {
            return new TimeoutException("Channel " + channel + ": no ack or nack within "
                    + processingTimeoutMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // Interrupted by the client's own shutdown: the message was not finished.
            return new ReleasedAtShutdown(channel);
        } catch (ExecutionException e) {
            return e.getCause();
        } finally {
            pending.remove(outcome);
        }
    }

    /** Records the application's answer; only the first one counts (a late ack after a timeout is ignored). */
    private static CompletableFuture<Void> complete(CompletableFuture<Throwable> outcome, Throwable cause) {
        outcome.complete(cause);
        return CompletableFuture.completedFuture(null);
    }

    /** Adds the channel's readiness: started, consuming, its name server reachable. */
    public void reportReadiness(HealthReport.HealthReportBuilder builder) {
        if (!config.getHealthEnabled()) {
            return;
        }
        if (startFailure != null) {
            builder.add(channel, false, "consumer failed to start: " + startFailure.getMessage());
        } else if (halted != null) {
            builder.add(channel, false, "stopped by failure-strategy=fail: " + halted);
        } else if (stopping) {
            builder.add(channel, false, "consumer stopped");
        } else if (!started) {
            builder.add(channel, false, "consumer not started");
        } else if (emitter.isCancelled()) {
            builder.add(channel, false, "the application cancelled its subscription to the channel");
        } else if (probe.reachable() == null) {
            builder.add(channel, false, "name server unreachable: " + probe.describe());
        } else {
            builder.add(channel, true);
        }
    }

    /** Alive unless stopped by {@link FailureStrategy#FAIL}: a restart is what delivers its message again. */
    public void reportLiveness(HealthReport.HealthReportBuilder builder) {
        if (config.getHealthEnabled()) {
            builder.add(channel, halted == null, halted == null ? null : "stopped by failure-strategy=fail: " + halted);
        }
    }

    /**
     * Graceful stop: stop fetching, let the messages the application holds finish (bounded by
     * {@code shutdown-timeout}), then give everything unfinished back to the broker untouched and
     * shut the consumer down. Nothing unprocessed is acknowledged or sent to the retry topic: its
     * offset stays uncommitted and the group's next consumer receives it again. Idempotent.
     */
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stopping = true;
        if (combiner != null) {
            // Deliveries still waiting to be combined are given back now rather than processed.
            combiner.release();
        }
        if (started) {
            consumer.suspend();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.getShutdownTimeout());
            boolean interrupted = false;
            while (inFlight.get() > 0 && System.nanoTime() < deadline && !interrupted) {
                interrupted = pause(20);
            }
            int unfinished = inFlight.get();
            if (unfinished > 0) {
                LOG.unfinishedAtShutdown(channel, unfinished, config.getShutdownTimeout());
            } else if (!interrupted) {
                interrupted = pause(RESULT_SETTLE_MILLIS);
            }
            releaseQueues();
            consumer.shutdown();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        } else {
            released.countDown();
        }
        deadLetters.close();
        if (emitter != null) {
            emitter.complete();
        }
        metrics.close();
        LOG.sourceStopped(channel);
    }

    /**
     * Drops every process queue, so that the client ignores the listener's answer for anything
     * still unfinished (no send-back, no offset update), then wakes the listener threads holding
     * messages that were not handed over and ends the wait for messages the application holds.
     */
    private void releaseQueues() {
        // getDefaultMQPushConsumerImpl() is deprecated but public in 5.x and the only access to the
        // process queues; dropping them is what the client itself does when a queue is rebalanced away.
        @SuppressWarnings("deprecation")
        Collection<ProcessQueue> queues = consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl()
                .getProcessQueueTable().values();
        queues.forEach(pq -> pq.setDropped(true));
        queuesReleased = true;
        if (combiner != null) {
            combiner.release();
        }
        released.countDown();
        pending.forEach(outcome -> outcome.complete(new ReleasedAtShutdown(channel)));
    }

    /** Sleeps; returns true when interrupted (the flag is left for the caller to restore). */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }
}
