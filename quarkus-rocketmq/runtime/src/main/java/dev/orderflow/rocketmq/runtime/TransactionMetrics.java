package dev.orderflow.rocketmq.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

import dev.orderflow.rocketmq.TransactionResolution;

/**
 * Micrometer meters of one transactional channel, tagged {@code channel}, beside its
 * {@link ChannelMetrics} (half messages count as sent or failed there):
 * {@code rocketmq.transactions{outcome=commit|rollback|unknown}} for sends through
 * {@code RocketMQTransactions}, {@code rocketmq.transaction.checks{resolution=...}} for the
 * broker's check-backs this instance answered.
 */
final class TransactionMetrics {

    private final Counter committed;
    private final Counter rolledBack;
    private final Counter unknown;
    private final Counter checkCommitted;
    private final Counter checkRolledBack;
    private final Counter checkUnknown;
    private final ChannelMeters meters = new ChannelMeters();

    TransactionMetrics(String channel) {
        MeterRegistry registry = Metrics.globalRegistry;
        committed = outcome(registry, channel, "commit");
        rolledBack = outcome(registry, channel, "rollback");
        unknown = outcome(registry, channel, "unknown");
        checkCommitted = check(registry, channel, TransactionResolution.COMMIT);
        checkRolledBack = check(registry, channel, TransactionResolution.ROLLBACK);
        checkUnknown = check(registry, channel, TransactionResolution.UNKNOWN);
    }

    private Counter outcome(MeterRegistry registry, String channel, String outcome) {
        return meters.add(Counter.builder("rocketmq.transactions")
                .description("Transactional sends by outcome of the local transaction")
                .tag("channel", channel).tag("outcome", outcome).register(registry));
    }

    private Counter check(MeterRegistry registry, String channel, TransactionResolution resolution) {
        return meters.add(Counter.builder("rocketmq.transaction.checks")
                .description("Broker check-backs answered, by resolution")
                .tag("channel", channel).tag("resolution", resolution.name().toLowerCase()).register(registry));
    }

    /** Removes these meters from the global registry (see {@link ChannelMeters}). */
    void close() {
        meters.removeAll();
    }

    void committed() {
        committed.increment();
    }

    void rolledBack() {
        rolledBack.increment();
    }

    void unknown() {
        unknown.increment();
    }

    void checked(TransactionResolution resolution) {
        switch (resolution) {
            case COMMIT -> checkCommitted.increment();
            case ROLLBACK -> checkRolledBack.increment();
            case UNKNOWN -> checkUnknown.increment();
        }
    }
}
