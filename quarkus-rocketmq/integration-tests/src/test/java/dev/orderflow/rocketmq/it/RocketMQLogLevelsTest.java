package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The levels the extension gives RocketMQ's log categories by default (RocketMQ's records reach the
 * application's log through RocketMQLogProvider): warnings and errors, and errors only for the client
 * API class whose routine warning is a missing topic's route.
 */
@QuarkusTest
class RocketMQLogLevelsTest {

    @Test
    void rocketMQLogsWarningsAndErrorsByDefault() {
        Logger rocketmq = Logger.getLogger("org.apache.rocketmq.client.impl.consumer.RebalanceService");
        assertThat(rocketmq.isLoggable(Level.INFO)).isFalse();
        assertThat(rocketmq.isLoggable(Level.WARNING)).isTrue();
        assertThat(Logger.getLogger("org.apache.rocketmq.RocketmqClient").isLoggable(Level.WARNING)).isTrue();
    }

    @Test
    void theClientApisMissingTopicWarningIsLeftOut() {
        Logger clientApi = Logger.getLogger("org.apache.rocketmq.client.impl.MQClientAPIImpl");
        assertThat(clientApi.isLoggable(Level.WARNING)).isFalse();
        assertThat(clientApi.isLoggable(Level.SEVERE)).isTrue();
    }
}
