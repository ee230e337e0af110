package dev.orderflow.rocketmq.runtime;

import org.apache.rocketmq.client.producer.DefaultMQProducer;

/** What every producer the extension creates (channels, transactions, dead letters, re-drive) is given before it starts. */
final class RocketMQProducers {

    /**
     * The hold time given to the client's send accumulator. The client starts an accumulator with
     * every producer, whether auto-batching is on or not, and its two guard threads wake every half
     * hold time: with the client's 10 ms that is 400 wake-ups a second per producer, about half of an
     * idle service's CPU. The extension never turns auto-batching on,
     * so the guards have nothing to do; 200 ms lets them wake 10 times a second and keeps a
     * producer's shutdown, which waits for them, short.
     */
    static final int ACCUMULATOR_HOLD_MS = 200;

    private RocketMQProducers() {
    }

    static <P extends DefaultMQProducer> P prepare(P producer, String nameServer, String instanceName) {
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName(instanceName);
        producer.batchMaxDelayMs(ACCUMULATOR_HOLD_MS);
        return producer;
    }
}
