package dev.orderflow.rocketmq.runtime.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;

import org.apache.rocketmq.logging.org.slf4j.Logger;
import org.apache.rocketmq.logging.org.slf4j.LoggerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.runtime.LogCapture;

/**
 * RocketMQ's shaded SLF4J, as the client calls it, ends in JBoss Logging when RocketMQ's logback is
 * not on the class path (as here: the extension leaves it out); {@link LogCapture} reads the records.
 */
class RocketMQLogProviderTest {

    private LogCapture rocketmq;

    @BeforeEach
    void captureRocketMQCategory() {
        rocketmq = LogCapture.of("org.apache.rocketmq", Level.INFO);
    }

    @AfterEach
    void release() {
        rocketmq.close();
    }

    @Test
    void rocketMQsRecordsReachJBossLoggingFormattedWithTheirThrowable() {
        assertThat(LoggerFactory.getILoggerFactory().getClass().getName())
                .as("the shaded SLF4J found this extension's provider")
                .startsWith(RocketMQLogProvider.class.getName());
        IllegalStateException failure = new IllegalStateException("broker gone");

        LoggerFactory.getLogger("RocketmqClient").warn("send to {} failed after {} ms", "broker-a", 3000, failure);

        assertThat(rocketmq.records()).singleElement().satisfies(logRecord -> {
            assertThat(logRecord.getLoggerName()).isEqualTo("org.apache.rocketmq.RocketmqClient");
            assertThat(logRecord.getLevel().intValue()).isEqualTo(Level.WARNING.intValue());
            assertThat(logRecord.getMessage()).isEqualTo("send to broker-a failed after 3000 ms");
            assertThat(logRecord.getThrown()).isSameAs(failure);
        });
    }

    @Test
    void classNamedLoggersKeepTheirCategoryAndTheCategorysLevelFilters() {
        Logger logger = LoggerFactory.getLogger("org.apache.rocketmq.client.impl.factory.MQClientInstance");
        rocketmq.level(Level.WARNING);

        logger.info("routine: {}", "heartbeat");
        logger.error("trouble: {}", "no route");

        assertThat(logger.isInfoEnabled()).isFalse();
        assertThat(logger.isWarnEnabled()).isTrue();
        assertThat(rocketmq.records()).singleElement().satisfies(logRecord -> {
            assertThat(logRecord.getLoggerName()).isEqualTo("org.apache.rocketmq.client.impl.factory.MQClientInstance");
            assertThat(logRecord.getLevel().intValue()).isEqualTo(Level.SEVERE.intValue());
            assertThat(logRecord.getMessage()).isEqualTo("trouble: no route");
        });
    }

    @Test
    void bareLoggerNamesGoUnderTheRocketMQCategory() {
        assertThat(JBossLoggingLogger.category("RocketmqRemoting")).isEqualTo("org.apache.rocketmq.RocketmqRemoting");
        assertThat(JBossLoggingLogger.category("io.netty.channel.DefaultChannelPipeline"))
                .isEqualTo("io.netty.channel.DefaultChannelPipeline");
    }
}
