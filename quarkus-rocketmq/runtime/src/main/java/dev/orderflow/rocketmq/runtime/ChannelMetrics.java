package dev.orderflow.rocketmq.runtime;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;

/**
 * Micrometer meters of one channel, tagged {@code channel}. Registered in the global registry,
 * which Quarkus' Micrometer extension (when present) exports, e.g. at {@code /q/metrics}.
 */
final class ChannelMetrics {

    private final Counter sent;
    private final Counter sendFailures;
    private final Timer sendLatency;
    private final Counter consumed;
    private final Timer consumeDuration;
    private final Counter acked;
    private final Counter retried;
    private final Counter deadLettered;
    private final Counter ignored;
    /** Messages per batch handed to the application; null for a channel that is not a batch channel. */
    private final DistributionSummary batchSize;
    private final String channel;
    private final ChannelMeters meters = new ChannelMeters();

    ChannelMetrics(String channel) {
        this(channel, false);
    }

    /** @param batch whether the channel hands batches to the application (then it also has a batch size summary) */
    ChannelMetrics(String channel, boolean batch) {
        this.channel = channel;
        MeterRegistry registry = Metrics.globalRegistry;
        sent = meters.add(Counter.builder("rocketmq.messages.sent").description("Messages the broker accepted")
                .tag("channel", channel).register(registry));
        sendFailures = meters.add(Counter.builder("rocketmq.send.failures").description("Sends that failed")
                .tag("channel", channel).register(registry));
        sendLatency = meters.add(Timer.builder("rocketmq.send.latency").description("Time from send to broker answer")
                .tag("channel", channel).publishPercentileHistogram().register(registry));
        consumed = meters.add(Counter.builder("rocketmq.messages.consumed").description("Messages handed to the application")
                .tag("channel", channel).register(registry));
        // With batches, count and sum give the time a lane spends in the application per batch; the rest
        // of its time it waits for deliveries (pulls, linger).
        consumeDuration = meters.add(Timer.builder("rocketmq.consume.duration")
                .description("Time from handing a delivery (one message, or one batch on a batch channel) to the "
                        + "application until its ack or nack")
                .tag("channel", channel).register(registry));
        acked = meters.add(Counter.builder("rocketmq.messages.acked").description("Messages the application acknowledged")
                .tag("channel", channel).register(registry));
        retried = meters.add(Counter.builder("rocketmq.messages.retried").description("Messages sent back for redelivery")
                .tag("channel", channel).register(registry));
        deadLettered = meters.add(Counter.builder("rocketmq.messages.dead.lettered").description("Messages moved to the DLQ")
                .tag("channel", channel).register(registry));
        ignored = meters.add(Counter.builder("rocketmq.messages.ignored")
                .description("Messages dropped after failing for good (failure-strategy=ignore)")
                .tag("channel", channel).register(registry));
        // Count and sum give batches per second and the mean size; the buckets show how full they are.
        batchSize = batch
                ? meters.add(DistributionSummary.builder("rocketmq.batch.size")
                        .description("Messages per batch handed to the application").tag("channel", channel)
                        .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256).register(registry))
                : null;
    }

    /** The gauge of the messages an incoming channel holds in the client (pulled, not yet consumed). */
    void cachedMessages(LongSupplier supplier) {
        meters.add(Gauge.builder("rocketmq.messages.cached", supplier, LongSupplier::getAsLong)
                .description("Messages pulled into this client and not yet consumed").tag("channel", channel)
                // strong: nothing else keeps the supplier, and a weakly held one would read NaN after a GC
                .strongReference(true).register(Metrics.globalRegistry));
    }

    /** Removes the channel's meters from the global registry (see {@link ChannelMeters}). */
    void close() {
        meters.removeAll();
    }

    void sent(long startNanos) {
        sent(startNanos, 1);
    }

    /** {@code count} messages stored by one send (a batch counts its elements, its latency once). */
    void sent(long startNanos, int count) {
        sent.increment(count);
        sendLatency.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    void sendFailed() {
        sendFailures.increment();
    }

    /** {@code count} messages handed to the application at once: on a batch channel, one batch. */
    void consumed(int count) {
        consumed.increment(count);
        if (batchSize != null) {
            batchSize.record(count);
        }
    }

    /** The application answered (ack or nack) a delivery handed to it at {@code handedOverNanos}. */
    void answered(long handedOverNanos) {
        consumeDuration.record(System.nanoTime() - handedOverNanos, TimeUnit.NANOSECONDS);
    }

    void acked(int count) {
        acked.increment(count);
    }

    void retried(int count) {
        retried.increment(count);
    }

    void deadLettered(int count) {
        deadLettered.increment(count);
    }

    void ignored(int count) {
        ignored.increment(count);
    }
}
