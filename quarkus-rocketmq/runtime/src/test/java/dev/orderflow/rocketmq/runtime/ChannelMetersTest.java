package dev.orderflow.rocketmq.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import dev.orderflow.rocketmq.TransactionResolution;

/**
 * A channel's meters live in Micrometer's global registry, which outlives the application: closing
 * the channel removes every one of them, so that a channel of the same name started again in the
 * same JVM counts from zero and no gauge reads a stopped consumer.
 */
class ChannelMetersTest {

    /** A registry that counts: the global one alone hands out meters that read 0. */
    private final SimpleMeterRegistry counting = new SimpleMeterRegistry();

    @BeforeEach
    void addCountingRegistry() {
        Metrics.addRegistry(counting);
    }

    @AfterEach
    void removeCountingRegistry() {
        Metrics.removeRegistry(counting);
    }

    @Test
    void closingAChannelRemovesAllItsMetersAndAChannelStartedAgainCountsFromZero() {
        String channel = "meters-test-in";
        ChannelMetrics metrics = new ChannelMetrics(channel, true);
        metrics.cachedMessages(() -> 7);
        metrics.sent(System.nanoTime(), 3);
        metrics.consumed(2);
        metrics.acked(2);
        assertThat(meterNames(channel)).containsExactlyInAnyOrder("rocketmq.messages.sent", "rocketmq.send.failures",
                "rocketmq.send.latency", "rocketmq.messages.consumed", "rocketmq.consume.duration",
                "rocketmq.messages.acked", "rocketmq.messages.retried", "rocketmq.messages.dead.lettered",
                "rocketmq.messages.ignored",
                "rocketmq.batch.size", "rocketmq.messages.cached");
        assertThat(Metrics.globalRegistry.get("rocketmq.messages.sent").tag("channel", channel).counter().count())
                .isEqualTo(3.0);

        metrics.close();

        assertThat(meterNames(channel)).isEmpty();
        new ChannelMetrics(channel, true).sent(System.nanoTime(), 1);
        assertThat(Metrics.globalRegistry.get("rocketmq.messages.sent").tag("channel", channel).counter().count())
                .as("the channel started again counts its own sends only").isEqualTo(1.0);
        assertThat(Metrics.globalRegistry.find("rocketmq.messages.cached").tag("channel", channel).gauge())
                .as("no gauge left on the stopped consumer").isNull();
    }

    @Test
    void closingATransactionalChannelRemovesItsTransactionMeters() {
        String channel = "meters-test-tx";
        TransactionMetrics metrics = new TransactionMetrics(channel);
        metrics.committed();
        metrics.checked(TransactionResolution.ROLLBACK);
        assertThat(Metrics.globalRegistry.find("rocketmq.transactions").tag("channel", channel).counters()).hasSize(3);
        assertThat(Metrics.globalRegistry.find("rocketmq.transaction.checks").tag("channel", channel).counters()).hasSize(3);

        metrics.close();

        assertThat(meterNames(channel)).isEmpty();
    }

    private static List<String> meterNames(String channel) {
        return Metrics.globalRegistry.getMeters().stream()
                .map(Meter::getId)
                .filter(id -> channel.equals(id.getTag("channel")))
                .map(Meter.Id::getName)
                .toList();
    }
}
