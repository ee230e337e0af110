package dev.orderflow.rocketmq.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** When the extension sets RocketMQ's serialize type, and when the JVM's own choice stands. */
class RemotingEncodingRecorderTest {

    private static final String PROPERTY = "rocketmq.serialize.type";
    private static final String ENV = "ROCKETMQ_SERIALIZE_TYPE";

    private final Map<String, String> properties = new HashMap<>();
    private final Map<String, String> environment = new HashMap<>();

    private String apply() {
        return RemotingEncodingRecorder.applyDefault(properties::get, environment::get, properties::put);
    }

    @Test
    void setsBinaryHeadersWhenNothingChoosesAType() {
        assertThat(apply()).isEqualTo("ROCKETMQ");
        assertThat(properties).containsEntry(PROPERTY, "ROCKETMQ");
    }

    @Test
    void aSystemPropertyWins() {
        properties.put(PROPERTY, "JSON");
        assertThat(apply()).isNull();
        assertThat(properties).containsEntry(PROPERTY, "JSON");
    }

    @Test
    void theEnvironmentVariableWins() {
        environment.put(ENV, "JSON");
        assertThat(apply()).isNull();
        assertThat(properties).doesNotContainKey(PROPERTY);
    }

    @Test
    void blankChoicesCountAsNone() {
        // RocketMQ ignores blank values, so the default still applies.
        properties.put(PROPERTY, " ");
        environment.put(ENV, "");
        assertThat(apply()).isEqualTo("ROCKETMQ");
        assertThat(properties).containsEntry(PROPERTY, "ROCKETMQ");
    }
}
