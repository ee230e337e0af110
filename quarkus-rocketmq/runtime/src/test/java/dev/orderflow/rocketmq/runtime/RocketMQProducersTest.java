package dev.orderflow.rocketmq.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.junit.jupiter.api.Test;

/** A started producer keeps the settings it was prepared with (no broker needed: the client connects lazily). */
class RocketMQProducersTest {

    private static final String NO_NAME_SERVER = "127.0.0.1:1";

    @Test
    void startedProducerSendsUnbatchedAndItsAccumulatorGuardsWakeRarely() throws Exception {
        startAndCheck(new DefaultMQProducer("producers_test_plain"), "producers-test-plain");
    }

    @Test
    void transactionalProducerGetsTheSameHoldTime() throws Exception {
        startAndCheck(new TransactionMQProducer("producers_test_tx"), "producers-test-tx");
    }

    private static void startAndCheck(DefaultMQProducer unprepared, String instanceName) throws Exception {
        DefaultMQProducer producer = RocketMQProducers.prepare(unprepared, NO_NAME_SERVER, instanceName);
        producer.start();
        try {
            assertThat(producer.getNamesrvAddr()).isEqualTo(NO_NAME_SERVER);
            assertThat(producer.getInstanceName()).isEqualTo(instanceName);
            assertThat(producer.getAutoBatch()).as("the extension never batches in the client").isFalse();
            assertThat(producer.getBatchMaxDelayMs()).isEqualTo(RocketMQProducers.ACCUMULATOR_HOLD_MS);
            assertThat(guardThreads(instanceName)).hasSize(2);
        } finally {
            producer.shutdown();
        }
        assertThat(guardThreads(instanceName)).as("the guards stop with the producer").isEmpty();
    }

    private static List<String> guardThreads(String instanceName) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.contains(instanceName) && name.contains("_GuardFor")).toList();
    }
}
