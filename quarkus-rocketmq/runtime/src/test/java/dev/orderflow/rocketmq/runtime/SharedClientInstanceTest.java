package dev.orderflow.rocketmq.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

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

    @Test
    void clientsWithOtherCredentialsShareAnotherInstanceWhoseNameCarriesNoKey() {
        ClientCredentials a = new ClientCredentials("user-a", "secret-a");
        String name = RocketMQMessages.sharedInstanceName(NAME_SERVER, a);
        assertThat(RocketMQMessages.sharedInstanceName(NAME_SERVER, new ClientCredentials("user-a", "secret-a")))
                .isEqualTo(name);
        assertThat(RocketMQMessages.sharedInstanceName(NAME_SERVER, new ClientCredentials("user-b", "secret-b")))
                .isNotEqualTo(name);
        assertThat(RocketMQMessages.sharedInstanceName(NAME_SERVER, new ClientCredentials("user-a", "secret-c")))
                .as("the same access key with another secret").isNotEqualTo(name);
        assertThat(RocketMQMessages.sharedInstanceName(NAME_SERVER)).isNotEqualTo(name);
        assertThat(name).doesNotContain("user-a", "secret-a");
    }

    @Test
    void aClientThatAnExplicitInstanceNamePutsWithAnotherUsersClientIsRefused() throws Exception {
        ClientCredentials a = new ClientCredentials("user-a", "secret-a");
        ClientCredentials b = new ClientCredentials("user-b", "secret-b");
        DefaultMQProducer first = RocketMQProducers.prepare(new DefaultMQProducer("explicit_test_a", a.rpcHook()),
                NAME_SERVER, "explicit-test-" + System.nanoTime());
        first.start();
        DefaultMQProducer second = RocketMQProducers.prepare(new DefaultMQProducer("explicit_test_b", b.rpcHook()),
                NAME_SERVER, first.getInstanceName());
        second.start();
        DefaultMQProducer unsigned = RocketMQProducers.prepare(new DefaultMQProducer("explicit_test_none"),
                NAME_SERVER, first.getInstanceName());
        unsigned.start();
        try {
            a.checkUsedBy(clientOf(first), "first");
            assertThat(clientOf(second)).isSameAs(clientOf(first));
            assertThatThrownBy(() -> b.checkUsedBy(clientOf(second), "Channel second"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Channel second")
                    .hasMessageContaining("signs as access key user-a, not as access key user-b")
                    .hasMessageNotContaining("secret");
            assertThatThrownBy(() -> ClientCredentials.NONE.checkUsedBy(clientOf(unsigned), "Channel unsigned"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not as nobody");
        } finally {
            unsigned.shutdown();
            second.shutdown();
            first.shutdown();
        }
    }

    @Test
    void credentialsAreBothKeysOrNeitherAndNeverShowTheSecret() {
        assertThat(ClientCredentials.of(Optional.empty(), Optional.empty(), "Channel c")).isEqualTo(ClientCredentials.NONE);
        assertThat(ClientCredentials.NONE.rpcHook()).isNull();
        ClientCredentials both = ClientCredentials.of(Optional.of("user"), Optional.of("secret"), "Channel c");
        assertThat(both.rpcHook()).isNotNull();
        assertThat(both.toString()).contains("user").doesNotContain("secret");
        assertThatThrownBy(() -> ClientCredentials.of(Optional.of("user"), Optional.empty(), "Channel c"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Channel c")
                .hasMessageContaining("secret-key is missing");
        assertThatThrownBy(() -> ClientCredentials.of(Optional.of(" "), Optional.of("secret"), "Channel c"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("access-key is missing");
    }

    private static DefaultMQProducer start(DefaultMQProducer producer, String nameServer) throws Exception {
        RocketMQProducers.prepare(producer, nameServer, RocketMQMessages.sharedInstanceName(nameServer)).start();
        return producer;
    }

    private static MQClientInstance clientOf(DefaultMQProducer producer) {
        return producer.getDefaultMQProducerImpl().getMqClientFactory();
    }
}
