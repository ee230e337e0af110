package dev.orderflow.rocketmq.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Level;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.orderflow.rocketmq.RocketMQConfigKeys;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * An incoming channel's settings checked when the source is built, and its cached-messages gauge
 * (no broker needed: the consumer is only built, not started).
 */
class RocketMQSourceSettingsTest {

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "pull-threshold-for-queue | 0     | pull-threshold-for-queue must be 1 to 65535 messages, not 0",
            "pull-threshold-for-queue | 65536 | pull-threshold-for-queue must be 1 to 65535 messages, not 65536",
            "pull-threshold-for-topic | 0       | pull-threshold-for-topic must be 1 to 6553500 messages, not 0",
            "pull-threshold-for-topic | 6553501 | pull-threshold-for-topic must be 1 to 6553500 messages, not 6553501",
            "pull-interval            | -1    | pull-interval must be 0 or more milliseconds, not -1",
            "batch-linger             | -1    | batch-linger must be 0 or more, not -1",
            "batch-concurrency        | -1    | batch-concurrency must be 0 or more, not -1",
            "consume-from             | next  | consume-from must be 'first' or 'last', not 'next'" })
    void anAttributeOutOfItsRangeIsRefusedWhenTheChannelIsBuilt(String attribute, String value, String message) {
        assertThatThrownBy(() -> source("refused-in", Map.of(attribute, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Channel refused-in: " + message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not in batch mode        | batch=false",
            "without combining        | batch=true",
            "in orderly mode          | batch=true,batch-concurrency=1,consume-mode=orderly" })
    void aBacklogConcurrencyWithoutCombinedBatchesIsRefused(String name, String attributes) {
        Map<String, String> settings = settings(attributes);
        settings.put("batch-backlog-concurrency", "2");
        assertThatThrownBy(() -> source("uncombined-in", settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Channel uncombined-in: batch-backlog-concurrency needs batch=true, consume-mode"
                        + " concurrently and batch-concurrency of 1 or more");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not in batch mode | batch=false,batch-concurrency=1 "
                    + "| batch-concurrency=1 ignored",
            "in orderly mode   | batch=true,batch-concurrency=2,batch-linger=20,consume-mode=orderly "
                    + "| batch-concurrency=2 and batch-linger=20 ignored",
            "without combining | batch=true,batch-linger=20 "
                    + "| batch-linger=20 ignored" })
    void combiningAttributesWhereBatchesAreNotCombinedAreWarnedAbout(String name, String attributes, String warning) {
        try (LogCapture log = LogCapture.of(RocketMQSource.class.getName(), Level.WARNING)) {
            source("ignoring-in", settings(attributes)).close();

            assertThat(log.records()).singleElement().satisfies(logRecord -> {
                assertThat(logRecord.getLevel().intValue()).isEqualTo(Level.WARNING.intValue());
                assertThat(LogCapture.formatted(logRecord)).isEqualTo("RMQ0003: Channel ignoring-in: " + warning
                        + ": batches are"
                        + " combined only with batch=true, consume-mode concurrently and batch-concurrency of 1 or more");
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "combined batches  | batch=true,batch-concurrency=1,batch-linger=20",
            "the defaults      | batch=false" })
    void channelsThatUseTheirAttributesAreNotWarnedAbout(String name, String attributes) {
        try (LogCapture log = LogCapture.of(RocketMQSource.class.getName(), Level.WARNING)) {
            source("using-in", settings(attributes)).close();

            assertThat(log.records()).isEmpty();
        }
    }

    @Test
    void aBacklogConcurrencyBelowTheBatchConcurrencyIsRefused() {
        assertThatThrownBy(() -> source("backlog-in", Map.of("batch", "true", "batch-concurrency", "2",
                "batch-backlog-concurrency", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Channel backlog-in: batch-backlog-concurrency must be 2 or more (0, or at least"
                        + " batch-concurrency), not 1");
    }

    @Test
    void aPullThresholdPerQueueAndOnePerTopicTogetherAreRefused() {
        assertThatThrownBy(() -> source("both-in", Map.of("pull-threshold-for-queue", "100",
                "pull-threshold-for-topic", "400")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Channel both-in: set pull-threshold-for-queue or pull-threshold-for-topic, not both");
    }

    @Test
    void theTopOfEachThresholdsRangeIsAccepted() {
        assertThatCode(() -> source("top-queue-in", Map.of("pull-threshold-for-queue", "65535")).close())
                .doesNotThrowAnyException();
        assertThatCode(() -> source("top-topic-in", Map.of("pull-threshold-for-topic", "6553500")).close())
                .doesNotThrowAnyException();
    }

    @Test
    void theCachedMessagesGaugeLivesAsLongAsItsChannel() {
        RocketMQSource source = source("gauge-in", Map.of());
        assertThat(cachedGauge("gauge-in")).as("registered with the channel").isNotNull()
                .satisfies(gauge -> assertThat(gauge.value()).as("nothing pulled yet").isZero());

        source.close();

        assertThat(cachedGauge("gauge-in")).as("removed when the channel closes").isNull();
    }

    private static Gauge cachedGauge(String channel) {
        return Metrics.globalRegistry.find("rocketmq.messages.cached").tag("channel", channel).gauge();
    }

    /** {@code a=b,c=d} as a mutable map. */
    private static Map<String, String> settings(String attributes) {
        Map<String, String> settings = new HashMap<>();
        for (String attribute : attributes.split(",")) {
            String[] pair = attribute.trim().split("=");
            settings.put(pair[0], pair[1]);
        }
        return settings;
    }

    private static RocketMQSource source(String channel, Map<String, String> attributes) {
        Map<String, String> values = new HashMap<>(attributes);
        values.put("channel-name", channel);
        values.put("connector", RocketMQConfigKeys.CONNECTOR_NAME);
        values.put("name-server", "127.0.0.1:1");
        values.put("topic", "settings_test");
        return new RocketMQSource(new RocketMQConnectorIncomingConfiguration(
                new SmallRyeConfigBuilder().withDefaultValues(values).build()));
    }
}
