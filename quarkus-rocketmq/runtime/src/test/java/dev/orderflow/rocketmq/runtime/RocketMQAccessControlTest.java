package dev.orderflow.rocketmq.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.common.action.Action;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.GroupLag;
import dev.orderflow.rocketmq.RocketMQAdminException;
import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import dev.orderflow.rocketmq.RocketMQSendException;
import dev.orderflow.rocketmq.TransactionResolution;
import dev.orderflow.rocketmq.embedded.BrokerResponses;
import dev.orderflow.rocketmq.embedded.BrokerUser;
import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.mutiny.Multi;

/**
 * The extension's clients against a broker with access control: every producer, the consumer with
 * its DLQ writer, and {@code RocketMQAdmin} sign with the credentials configured for them, and
 * channels of one process with other credentials do not share a client instance (which would sign
 * for them all as the first). Without credentials the same requests are refused, so each success
 * below is the credentials' doing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RocketMQAccessControlTest {

    /** How long the broker gets to deliver or catch up, asked every 100 ms. */
    private static final ConditionFactory WITHIN_30_S = Awaitility.await().atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(100));

    private static final String TOPIC = "ext_acl_orders";
    private static final String GROUP = "ext_acl_inventory";
    private static final String DLQ = "%DLQ%" + GROUP;

    private static final BrokerUser PRODUCER = BrokerUser.of("ext-orders", "orders-secret").publishes(TOPIC);
    private static final BrokerUser CONSUMER = BrokerUser.of("ext-inventory", "inventory-secret")
            .subscribes(TOPIC).consumesAs(GROUP).publishes(DLQ);
    /** What DefaultRocketMQAdmin asks of the broker, and nothing else. */
    private static final BrokerUser ADMIN = BrokerUser.of("ext-admin", "admin-secret")
            .allows("Group:*", Action.GET)
            .allows("Topic:*", Action.GET)
            .subscribes("%DLQ%*")
            .consumesAs("orderflow_dlq_browser", "orderflow_dlq_redrive");

    private static EmbeddedRocketMQ rocketMQ;
    private static RocketMQSource source;
    private static final List<String> received = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        rocketMQ = EmbeddedRocketMQ.start(EmbeddedRocketMQ.Options.forTests(
                Path.of("target", "ext-acl-test-" + System.nanoTime())).accessControl(PRODUCER, CONSUMER, ADMIN));
        rocketMQ.createTopics(List.of(TOPIC, DLQ, "%RETRY%" + GROUP), 2);
    }

    @AfterAll
    static void stop() {
        if (source != null) {
            source.close();
        }
        rocketMQ.close();
    }

    @Test
    @Order(1)
    void eachProducerSignsWithItsChannelsCredentials() {
        RocketMQSink unsigned = new RocketMQSink(outgoing("ext-acl-unsigned", null), new ObjectMapper());
        RocketMQSink orders = new RocketMQSink(outgoing("ext-acl-orders", PRODUCER), new ObjectMapper());
        // Started after the orders channel in the same process: a shared instance would sign as that one.
        RocketMQSink consumerKeys = new RocketMQSink(outgoing("ext-acl-consumer-keys", CONSUMER), new ObjectMapper());
        try {
            assertThat(BrokerResponses.codeOf(send(unsigned, "unsigned"))).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(send(orders, "plain")).isNull();
            assertThat(BrokerResponses.codeOf(send(consumerKeys, "not its topic"))).isEqualTo(ResponseCode.NO_PERMISSION);
        } finally {
            unsigned.close();
            orders.close();
            consumerKeys.close();
        }

        TransactionalChannel unsignedTx = new TransactionalChannel(outgoing("ext-acl-tx-unsigned", null),
                check -> TransactionResolution.ROLLBACK);
        TransactionalChannel ordersTx = new TransactionalChannel(outgoing("ext-acl-tx", PRODUCER),
                check -> TransactionResolution.ROLLBACK);
        unsignedTx.start();
        ordersTx.start();
        try {
            Throwable refused = catchThrowable(() -> unsignedTx.send(
                    new org.apache.rocketmq.common.message.Message(TOPIC, "tx".getBytes()),
                    () -> LocalTransactionState.COMMIT_MESSAGE));
            assertThat(refused).isInstanceOf(RocketMQSendException.class);
            assertThat(BrokerResponses.codeOf(refused)).isEqualTo(ResponseCode.NO_PERMISSION);

            assertThat(ordersTx.send(new org.apache.rocketmq.common.message.Message(TOPIC, "transactional".getBytes()),
                    () -> LocalTransactionState.COMMIT_MESSAGE)).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        } finally {
            unsignedTx.close();
            ordersTx.close();
        }
        RocketMQSink poison = new RocketMQSink(outgoing("ext-acl-poison", PRODUCER), new ObjectMapper());
        try {
            assertThat(send(poison, "poison")).isNull();
        } finally {
            poison.close();
        }
    }

    @Test
    @Order(2)
    void theConsumerReceivesAndDeadLettersWithItsCredentials() throws Exception {
        source = new RocketMQSource(new RocketMQConnectorIncomingConfiguration(config(Map.of(
                "channel-name", "ext-acl-inventory",
                "topic", TOPIC,
                "consumer-group", GROUP,
                "consume-from", "first"), CONSUMER)));
        source.stream().subscribe().with(message -> {
            String payload = (String) message.getPayload();
            received.add(payload);
            if (payload.equals("poison")) {
                message.nack(new RocketMQPermanentFailure("format", "not an order"));
            } else {
                message.ack();
            }
        });
        WITHIN_30_S.alias("the consumer receives every message").until(() -> received.containsAll(List.of("plain", "transactional", "poison")));
        DefaultRocketMQAdmin admin = admin(ADMIN);
        try {
            // The DLQ writer shares the consumer's client and credentials.
            WITHIN_30_S.alias("the poison message is in the DLQ").until(() -> admin.topicDepth(DLQ) == 1);
        } finally {
            admin.close();
        }
    }

    @Test
    @Order(3)
    void theAdminReadsLagAndTheDeadLetterQueueAndRedrivesWithTheConnectorsCredentials() throws Exception {
        DefaultRocketMQAdmin unsigned = admin(null);
        try {
            Throwable refused = catchThrowable(() -> unsigned.lag(GROUP));
            assertThat(refused).isInstanceOf(RocketMQAdminException.class);
            assertThat(BrokerResponses.codeOf(refused)).isEqualTo(ResponseCode.NO_PERMISSION);
        } finally {
            unsigned.close();
        }

        DefaultRocketMQAdmin admin = admin(ADMIN);
        try {
            WITHIN_30_S.alias("the admin sees the group caught up").until(() -> {
                GroupLag lag = admin.lag(GROUP);
                return lag.consumersOnline() == 1 && lag.messagesBehind() == 0 && lag.deadLetters() == 1;
            });
            List<DeadLetter> letters = admin.browseDeadLetters(GROUP, 10);
            assertThat(letters).extracting(DeadLetter::bodyAsString).containsExactly("poison");

            assertThat(admin.redrive(GROUP, letters.get(0), null)).isNotBlank();
            WITHIN_30_S.alias("the consumer receives the re-driven message").until(() -> received.stream().filter("poison"::equals).count() == 2);
        } finally {
            admin.close();
        }
    }

    /** Null when the broker stored the message (acked), else the failure it was nacked with. */
    private static Throwable send(RocketMQSink sink, String payload) {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Message<String> message = Message.of(payload, () -> {
            outcome.complete(null);
            return CompletableFuture.completedFuture(null);
        }, failure -> {
            outcome.complete(failure);
            return CompletableFuture.completedFuture(null);
        });
        @SuppressWarnings("unchecked")
        Flow.Subscriber<Message<String>> subscriber = (Flow.Subscriber<Message<String>>) sink.subscriber();
        Multi.createFrom().item(message).subscribe(subscriber);
        return outcome.orTimeout(30, TimeUnit.SECONDS).join();
    }

    private static RocketMQConnectorOutgoingConfiguration outgoing(String channel, BrokerUser user) {
        return new RocketMQConnectorOutgoingConfiguration(config(Map.of("channel-name", channel, "topic", TOPIC,
                "producer-group", channel.replace('-', '_'), "retries", "0"), user));
    }

    /** A channel's configuration as the connector sees it: attribute names without prefix. */
    private static Config config(Map<String, String> attributes, BrokerUser user) {
        Map<String, String> all = new HashMap<>(attributes);
        all.put("name-server", rocketMQ.nameServerAddress());
        if (user != null) {
            all.put("access-key", user.accessKey());
            all.put("secret-key", user.secretKey());
        }
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(all, "test", 500)).build();
    }

    /** The CDI bean as the application gets it, configured with connector-level keys. */
    private static DefaultRocketMQAdmin admin(BrokerUser user) {
        Map<String, String> keys = new HashMap<>();
        keys.put(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, rocketMQ.nameServerAddress());
        if (user != null) {
            keys.put(RocketMQConfigKeys.CONNECTOR_ACCESS_KEY, user.accessKey());
            keys.put(RocketMQConfigKeys.CONNECTOR_SECRET_KEY, user.secretKey());
        }
        DefaultRocketMQAdmin admin = new DefaultRocketMQAdmin();
        admin.config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(keys, "test", 500)).build();
        return admin;
    }
}
