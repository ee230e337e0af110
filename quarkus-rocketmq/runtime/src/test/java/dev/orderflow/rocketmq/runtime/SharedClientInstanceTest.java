package dev.orderflow.rocketmq.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.junit.jupiter.api.Test;

/**
 * The extension's clients share one client instance per name server (no broker needed: clients
 * connect lazily).
 */
class SharedClientInstanceTest {

    private static final String NAME_SERVER = "127.0.0.1:1";
    private static final String OTHER_NAME_SERVER = "127.0.0.1:2";

    @Test
    void oneNamePerNameServerCarryingThePid() {
        String name = RocketMQMessages.sharedInstanceName(NAME_SERVER);
        assertThat(RocketMQMessages.sharedInstanceName(NAME_SERVER)).isEqualTo(name);
        assertThat(RocketMQMessages.sharedInstanceName(OTHER_NAME_SERVER)).isNotEqualTo(name);
        assertThat(name).contains("@" + ProcessHandle.current().pid() + "#");
    }

    @Test
    void producersOfOneNameServerShareAClientInstanceThatOutlivesEachOfThem() throws Exception {
        DefaultMQProducer plain = start(new DefaultMQProducer("shared_test_plain"), NAME_SERVER);
        DefaultMQProducer transactional = start(new TransactionMQProducer("shared_test_tx"), NAME_SERVER);
        DefaultMQProducer elsewhere = start(new DefaultMQProducer("shared_test_elsewhere"), OTHER_NAME_SERVER);
        try {
            MQClientInstance shared = clientOf(plain);
            assertThat(clientOf(transactional)).isSameAs(shared);
            assertThat(clientOf(elsewhere)).isNotSameAs(shared);

            plain.shutdown();
            assertThat(shared.selectProducer("shared_test_tx")).as("the other producer is still served")
                    .isNotNull();
            DefaultMQProducer next = start(new DefaultMQProducer("shared_test_next"), NAME_SERVER);
            try {
                assertThat(clientOf(next)).as("a producer started later joins the running instance")
                        .isSameAs(shared);
            } finally {
                next.shutdown();
            }
        } finally {
            transactional.shutdown();
            elsewhere.shutdown();
        }
    }

    private static DefaultMQProducer start(DefaultMQProducer producer, String nameServer) throws Exception {
        RocketMQProducers.prepare(producer, nameServer, RocketMQMessages.sharedInstanceName(nameServer)).start();
        return producer;
    }

    private static MQClientInstance clientOf(DefaultMQProducer producer) {
        return producer.getDefaultMQProducerImpl().getMqClientFactory();
    }
}
