package dev.orderflow.rocketmq.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.TopicAttributes;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.action.Action;
import org.apache.rocketmq.common.attribute.TopicMessageType;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.ThrowingSupplier;

/**
 * A broker started with access control and the roles of the suite in miniature: a producer user,
 * a consumer user (its group, its topic, its DLQ), a stranger with topics and a group of its own, an
 * admin user with what {@code RocketMQAdmin} needs and nothing else, and a super user. Every refusal
 * is the broker's own answer ({@code NO_PERMISSION} with its reason), never a silence.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedRocketMQAccessControlTest {

    /** How long the broker gets to deliver or catch up, asked every 100 ms. */
    private static final ConditionFactory WITHIN_30_S = Awaitility.await().atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(100));

    private static final String ORDERS = "acl_orders";
    private static final String GROUP = "acl_inventory";
    private static final String DLQ = "%DLQ%" + GROUP;
    private static final String RETRY = "%RETRY%" + GROUP;
    private static final String OTHER_TOPIC = "acl_other";
    private static final String OTHER_GROUP = "acl_other_group";
    /** The groups DefaultRocketMQAdmin reads a DLQ and re-drives with. */
    private static final String DLQ_BROWSER_GROUP = "orderflow_dlq_browser";
    private static final String REDRIVE_GROUP = "orderflow_dlq_redrive";

    private static final BrokerUser PRODUCER = BrokerUser.of("acl-orders", "orders-secret").publishes(ORDERS);
    private static final BrokerUser CONSUMER = BrokerUser.of("acl-inventory", "inventory-secret")
            .subscribes(ORDERS).consumesAs(GROUP).publishes(DLQ);
    private static final BrokerUser STRANGER = BrokerUser.of("acl-stranger", "stranger-secret")
            .publishes(OTHER_TOPIC).subscribes(OTHER_TOPIC).consumesAs(OTHER_GROUP);
    private static final BrokerUser ADMIN = BrokerUser.of("acl-admin", "admin-secret")
            .allows("Group:*", Action.GET)
            .allows("Topic:*", Action.GET, Action.CREATE)
            .subscribes("%DLQ%*")
            .consumesAs(DLQ_BROWSER_GROUP, REDRIVE_GROUP);
    private static final BrokerUser ROOT = BrokerUser.superUser("acl-root", "root-secret");
    private static final String TX_PRODUCER_GROUP = "acl_orders_tx";
    private static final BrokerUser TX_PRODUCER = BrokerUser.of("acl-tx-orders", "tx-orders-secret").publishes(ORDERS)
            .answersCheckBacks();

    private static EmbeddedRocketMQ rocketMQ;
    private static DefaultMQPushConsumer consumer;
    private static final List<String> consumed = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        rocketMQ = EmbeddedRocketMQ.start(EmbeddedRocketMQ.Options.forTests(
                Path.of("target", "embedded-acl-test-" + System.nanoTime()))
                .accessControl(PRODUCER, CONSUMER, STRANGER, ADMIN, ROOT, TX_PRODUCER));
        rocketMQ.createTopics(List.of(ORDERS, OTHER_TOPIC, DLQ, RETRY), 2);
    }

    @AfterAll
    static void stop() {
        if (consumer != null) {
            consumer.shutdown();
        }
        rocketMQ.close();
    }

    @Test
    @Order(1)
    void withoutCredentialsNothingIsSentOrConsumed() throws Exception {
        assertRefused(() -> send(null, "anonymous_producer", ORDERS, "anonymous"), "username cannot be null");
        assertRefused(() -> pull(null, GROUP, ORDERS), "username cannot be null");
    }

    @Test
    @Order(2)
    void anotherUsersCredentialsReachOnlyThatUsersTopicsAndGroups() throws Exception {
        RPCHook stranger = hook(STRANGER);
        assertRefused(() -> send(stranger, "stranger_producer", ORDERS, "intruder"),
                "User:acl-stranger has no permission to access Topic:acl_orders");
        assertRefused(() -> pull(stranger, GROUP, ORDERS), "User:acl-stranger has no permission to access");
        assertRefused(() -> pull(stranger, OTHER_GROUP, ORDERS),
                "User:acl-stranger has no permission to access Topic:acl_orders");
        assertRefused(() -> pull(stranger, GROUP, OTHER_TOPIC),
                "User:acl-stranger has no permission to access Group:acl_inventory");
        // A known access key signed with another secret is not that user.
        RPCHook forged = new AclClientRPCHook(new SessionCredentials(PRODUCER.accessKey(), STRANGER.secretKey()));
        assertRefused(() -> send(forged, "forged_producer", ORDERS, "forged"), "check signature failed");

        // The stranger's own keys are good where it is granted.
        assertThat(send(stranger, "stranger_producer", OTHER_TOPIC, "own topic")).isEqualTo(SendStatus.SEND_OK);
        assertThat(pull(stranger, OTHER_GROUP, OTHER_TOPIC)).isIn(PullStatus.FOUND, PullStatus.NO_NEW_MSG);
    }

    @Test
    @Order(3)
    void theRightfulUsersSendAndConsume() throws Exception {
        assertThat(send(hook(PRODUCER), "acl_orders_producer", ORDERS, "hello")).isEqualTo(SendStatus.SEND_OK);

        consumer = new DefaultMQPushConsumer(GROUP, hook(CONSUMER));
        consumer.setNamesrvAddr(rocketMQ.nameServerAddress());
        consumer.setInstanceName("acl-inventory-consumer");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(ORDERS, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> consumed.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        WITHIN_30_S.alias("the consumer user receives the message").until(() -> consumed.contains("hello"));

        // Where a group has no offset and a queue's first messages are gone, the client asks the
        // queue's bounds: Get on the topic, which subscribes() grants. (Asked through the consumer's
        // own client: a pull consumer of the same group would replace its subscriptions on the broker.)
        long stored = 0;
        for (MessageQueue queue : consumer.fetchSubscribeMessageQueues(ORDERS)) {
            stored += maxOffset(consumer, queue);
        }
        assertThat(stored).isEqualTo(1);

        // The connector writes a permanent failure to the group's DLQ with a plain send.
        assertThat(send(hook(CONSUMER), GROUP + "_dlq_writer", DLQ, "dead letter")).isEqualTo(SendStatus.SEND_OK);
    }

    @Test
    @Order(4)
    @SuppressWarnings("deprecation") // DefaultMQPullConsumer: what DefaultRocketMQAdmin browses a DLQ with
    void theAdminReadsLagBrowsesTheDeadLetterQueueRedrivesAndCreatesTopicsButSendsNowhereElse() throws Exception {
        DefaultMQAdminExt anonymous = admin(null, "acl-admin-anonymous");
        try {
            assertRefused(() -> anonymous.examineConsumeStats(GROUP), "username cannot be null");
        } finally {
            anonymous.shutdown();
        }
        DefaultMQAdminExt stranger = admin(hook(STRANGER), "acl-admin-stranger");
        try {
            assertRefused(() -> stranger.examineConsumeStats(GROUP),
                    "User:acl-stranger has no permission to access Group:acl_inventory");
        } finally {
            stranger.shutdown();
        }

        DefaultMQAdminExt admin = admin(hook(ADMIN), "acl-admin");
        try {
            // Lag: the group's committed offsets against the queues' (the consumer commits every few seconds).
            WITHIN_30_S.alias("the admin sees the group's offsets catch up").until(() -> {
                ConsumeStats stats = admin.examineConsumeStats(GROUP);
                long ordersStored = stats.getOffsetTable().entrySet().stream()
                        .filter(e -> e.getKey().getTopic().equals(ORDERS))
                        .mapToLong(e -> e.getValue().getBrokerOffset()).sum();
                return ordersStored == 1 && stats.computeTotalDiff() == 0;
            });
            ConsumerConnection connection = admin.examineConsumerConnectionInfo(GROUP);
            assertThat(connection.getConnectionSet()).hasSize(1);
            assertThat(connection.getSubscriptionTable()).containsKey(ORDERS);
            assertThat(admin.queryConsumeTimeSpan(ORDERS, GROUP)).isNotEmpty();

            // DLQ depth, then the DLQ read as DefaultRocketMQAdmin reads it.
            TopicStatsTable dlqStats = admin.examineTopicStats(DLQ);
            assertThat(dlqStats.getOffsetTable().values().stream()
                    .mapToLong(o -> o.getMaxOffset() - o.getMinOffset()).sum()).isEqualTo(1);
            MessageQueue deadLetterQueue = dlqStats.getOffsetTable().entrySet().stream()
                    .filter(e -> e.getValue().getMaxOffset() > e.getValue().getMinOffset())
                    .map(Map.Entry::getKey).findFirst().orElseThrow();
            DefaultMQPullConsumer browser = new DefaultMQPullConsumer(DLQ_BROWSER_GROUP, hook(ADMIN));
            browser.setNamesrvAddr(rocketMQ.nameServerAddress());
            browser.setInstanceName("acl-dlq-browser");
            browser.start();
            try {
                PullResult letters = browser.pull(deadLetterQueue, "*", 0, 32);
                assertThat(letters.getPullStatus()).isEqualTo(PullStatus.FOUND);
                assertThat(new String(letters.getMsgFoundList().get(0).getBody(), StandardCharsets.UTF_8))
                        .isEqualTo("dead letter");
            } finally {
                browser.shutdown();
            }

            // Re-drive: a send to the group's retry topic, which the group's consumer then receives.
            assertThat(send(hook(ADMIN), REDRIVE_GROUP, RETRY, "redriven")).isEqualTo(SendStatus.SEND_OK);
            WITHIN_30_S.alias("the consumer receives the re-driven message").until(() -> consumed.contains("redriven"));

            // Topic creation (mqadmin updateTopic's request). A topic without attributes is sent with
            // an empty "attributes" header field, which binary headers (this JVM's serialize type)
            // carry as null: the broker then signs the text "null" where the client signed nothing,
            // and refuses the request. With an attribute the field is not empty.
            assertRefused(() -> {
                admin.createAndUpdateTopicConfig(rocketMQ.brokerAddress(), new TopicConfig("acl_created", 1, 1, 6));
                return null;
            }, "check signature failed");
            TopicConfig created = new TopicConfig("acl_created", 1, 1, 6);
            created.setAttributes(Map.of("+" + TopicAttributes.TOPIC_MESSAGE_TYPE_ATTRIBUTE.getName(),
                    TopicMessageType.NORMAL.getValue()));
            admin.createAndUpdateTopicConfig(rocketMQ.brokerAddress(), created);
            assertThat(rocketMQ.broker().getTopicConfigManager().selectTopicConfig("acl_created")).isNotNull();
        } finally {
            admin.shutdown();
        }

        // Not a super user: reading and re-driving is all it may do.
        assertRefused(() -> send(hook(ADMIN), "admin_producer", ORDERS, "from the admin"),
                "User:acl-admin has no permission to access Topic:acl_orders");
    }

    @Test
    @Order(5)
    void aSuperUserIsAllowedEverything() throws Exception {
        assertThat(send(hook(ROOT), "root_producer", ORDERS, "root")).isEqualTo(SendStatus.SEND_OK);
        assertThat(pull(hook(ROOT), OTHER_GROUP, ORDERS)).isEqualTo(PullStatus.FOUND);
    }

    /**
     * The broker asks the producer group about a half message whose outcome it never got (the
     * sender crashed after its local commit), and the answer COMMIT makes the message visible: the
     * answer names the half-message topic, which the producer's user must be granted too.
     */
    @Test
    @Order(6)
    void aTransactionalSendersCheckBackAnswerCommitsTheMessage() throws Exception {
        TransactionMQProducer producer = new TransactionMQProducer(TX_PRODUCER_GROUP, hook(TX_PRODUCER));
        producer.setNamesrvAddr(rocketMQ.nameServerAddress());
        producer.setInstanceName("acl-tx-" + System.nanoTime());
        AtomicInteger checks = new AtomicInteger();
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.UNKNOW; // as a sender that died before reporting its commit
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                checks.incrementAndGet();
                return LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        producer.start();
        try {
            assertThat(producer.sendMessageInTransaction(new Message(ORDERS, "tag",
                    "committed by check-back".getBytes(StandardCharsets.UTF_8)), null).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
            WITHIN_30_S.alias("the check-back's COMMIT makes the message visible to the consumer")
                    .until(() -> consumed.contains("committed by check-back"));
            // Asked once, answered once: the broker took the answer and asked no more.
            Awaitility.await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12))
                    .untilAsserted(() -> assertThat(checks.get()).isEqualTo(1));
        } finally {
            producer.shutdown();
        }
    }

    private static RPCHook hook(BrokerUser user) {
        return new AclClientRPCHook(new SessionCredentials(user.accessKey(), user.secretKey()));
    }

    private static SendStatus send(RPCHook hook, String producerGroup, String topic, String body) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(producerGroup, hook);
        producer.setNamesrvAddr(rocketMQ.nameServerAddress());
        producer.setInstanceName("acl-send-" + System.nanoTime());
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        try {
            return producer.send(new Message(topic, "tag", body.getBytes(StandardCharsets.UTF_8))).getSendStatus();
        } finally {
            producer.shutdown();
        }
    }

    /** One pull of queue 0 of {@code topic} from offset 0 as {@code group}. */
    @SuppressWarnings("deprecation") // DefaultMQPullConsumer: the one client that makes a single pull
    private static PullStatus pull(RPCHook hook, String group, String topic) throws Exception {
        DefaultMQPullConsumer reader = new DefaultMQPullConsumer(group, hook);
        reader.setNamesrvAddr(rocketMQ.nameServerAddress());
        reader.setInstanceName("acl-pull-" + System.nanoTime());
        reader.start();
        try {
            MessageQueue queue = reader.fetchSubscribeMessageQueues(topic).stream()
                    .filter(q -> q.getQueueId() == 0).findFirst().orElseThrow();
            long offset = 0;
            PullStatus status = reader.pull(queue, "*", offset, 32).getPullStatus();
            if (status == PullStatus.NO_NEW_MSG) {
                // Whatever was sent may be on the other queue.
                MessageQueue other = new MessageQueue(topic, queue.getBrokerName(), 1);
                PullStatus second = reader.pull(other, "*", offset, 32).getPullStatus();
                return second == PullStatus.FOUND ? second : status;
            }
            return status;
        } finally {
            reader.shutdown();
        }
    }

    @SuppressWarnings("deprecation") // the client's own call, as its rebalance makes it
    private static long maxOffset(DefaultMQPushConsumer consumer, MessageQueue queue) throws MQClientException {
        return consumer.maxOffset(queue);
    }

    private static DefaultMQAdminExt admin(RPCHook hook, String instanceName) throws MQClientException {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(hook);
        admin.setNamesrvAddr(rocketMQ.nameServerAddress());
        admin.setInstanceName(instanceName);
        admin.start();
        return admin;
    }

    /** The broker answered NO_PERMISSION with {@code reason} in its remark. */
    private static void assertRefused(ThrowingSupplier<?> request, String reason) {
        Throwable refusal = catchThrowable(request::get);
        assertThat(refusal).as("the broker's refusal").isNotNull();
        assertThat(BrokerResponses.codeOf(refusal)).as("response code of %s", refusal)
                .isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(refusal).hasStackTraceContaining(reason);
    }
}
