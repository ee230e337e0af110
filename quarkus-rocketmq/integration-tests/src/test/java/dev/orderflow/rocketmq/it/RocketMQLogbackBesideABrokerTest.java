package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.rocketmq.logging.org.slf4j.LoggerFactory;
import org.junit.jupiter.api.Test;

/**
 * With a broker on the class path (this module's tests run one in-process, rocketmq-embedded), RocketMQ's
 * shaded logback is there too, beside the extension's provider: RocketMQ keeps logging through logback,
 * as configured for the broker, whichever of the two providers RocketMQ's SLF4J found first.
 */
class RocketMQLogbackBesideABrokerTest {

    @Test
    void rocketMQKeepsItsLogbackWhenABrokerBringsIt() {
        assertThat(LoggerFactory.getILoggerFactory().getClass().getName())
                .isEqualTo("org.apache.rocketmq.logging.ch.qos.logback.classic.LoggerContext");
    }
}
