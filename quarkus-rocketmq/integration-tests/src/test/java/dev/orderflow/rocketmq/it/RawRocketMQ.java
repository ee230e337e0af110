package dev.orderflow.rocketmq.it;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.rocketmq.runtime.RocketMQConnectorIncomingConfiguration;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * Plain Apache RocketMQ clients the tests use to look at the broker behind the connector's back:
 * a pull consumer for dead-letter queues, a producer, the admin client; and the configuration of a
 * source a test runs on its own.
 */
final class RawRocketMQ {

    private RawRocketMQ() {
    }

    /** The name server of the broker Dev Services started for this test run. */
    static String nameServer() {
        return ConfigProvider.getConfig().getValue(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, String.class);
    }

    static String unique(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** A started producer in a group of its own; shut it down after use. */
    static DefaultMQProducer producer() throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(unique("it_raw_producer"));
        producer.setNamesrvAddr(nameServer());
        producer.setInstanceName(unique("it-raw-producer"));
        producer.start();
        return producer;
    }

    /** A started admin client; shut it down after use. */
    static DefaultMQAdminExt admin() throws MQClientException {
        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(nameServer());
        admin.setInstanceName(unique("it-admin"));
        admin.start();
        return admin;
    }

    /**
     * Reads {@code %DLQ%<group>} from its first offset with a raw pull consumer until
     * {@code expected} messages matching {@code filter} were seen, then polls once more so that an
     * unexpected extra copy would be seen too.
     *
     * @return every matching message found
     */
    static List<MessageExt> readDeadLetters(String group, Predicate<MessageExt> filter, int expected,
            Duration timeout) throws MQClientException {
        String topic = RocketMQDeadLetters.dlqTopic(group);
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(unique("it_dlq_reader"));
        consumer.setNamesrvAddr(nameServer());
        consumer.setInstanceName(unique("it-dlq-reader"));
        consumer.setAutoCommit(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();
        try {
            AtomicReference<Collection<MessageQueue>> queues = new AtomicReference<>();
            await("route of " + topic).atMost(timeout).ignoreExceptions().until(() -> {
                queues.set(consumer.fetchMessageQueues(topic));
                return !queues.get().isEmpty();
            });
            consumer.assign(queues.get());
            for (MessageQueue queue : queues.get()) {
                consumer.seekToBegin(queue);
            }
            List<MessageExt> found = new ArrayList<>();
            await(expected + " message(s) in " + topic).atMost(timeout).until(() -> {
                consumer.poll(500).stream().filter(filter).forEach(found::add);
                return found.size() >= expected;
            });
            consumer.poll(1000).stream().filter(filter).forEach(found::add);
            return found;
        } finally {
            consumer.shutdown();
        }
    }

    static String body(MessageExt message) {
        return new String(message.getBody(), StandardCharsets.UTF_8);
    }

    /** Sends one message per key, each with that key as body, all to the topic's queue 0: consumed in that order. */
    static void sendToQueueZero(String topic, List<String> keys) throws MQClientException {
        DefaultMQProducer producer = producer();
        try {
            for (String key : keys) {
                Message message = new Message(topic, key.getBytes(StandardCharsets.UTF_8));
                message.setKeys(key);
                SendStatus status = producer.send(message, (queues, msg, arg) -> queues.get(0), null).getSendStatus();
                if (status != SendStatus.SEND_OK) {
                    throw new IllegalStateException("send of " + key + " to " + topic + " answered " + status);
                }
            }
        } catch (Exception e) {
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        } finally {
            producer.shutdown();
        }
    }

    /**
     * The configuration the connector would give an incoming channel of these attributes on this
     * test run's broker, for a source the test runs and closes on its own.
     */
    static RocketMQConnectorIncomingConfiguration incoming(String channel, Map<String, String> attributes) {
        Map<String, String> all = new HashMap<>(attributes);
        all.put(ConnectorFactory.CHANNEL_NAME_ATTRIBUTE, channel);
        all.put(ConnectorFactory.CONNECTOR_ATTRIBUTE, RocketMQConfigKeys.CONNECTOR_NAME);
        all.put("name-server", nameServer());
        return new RocketMQConnectorIncomingConfiguration(
                new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(all, channel, 100)).build());
    }

    /**
     * Takes over {@code group} with a raw push consumer from the first offset, waits until it received
     * every one of {@code keys}, and returns the first delivery of each key it received (those
     * committed before may come again too).
     */
    static Map<String, MessageExt> receiveAsGroup(String group, String topic, Collection<String> keys,
            Duration timeout) throws MQClientException {
        Map<String, MessageExt> received = new ConcurrentHashMap<>();
        DefaultMQPushConsumer next = new DefaultMQPushConsumer(group);
        next.setNamesrvAddr(nameServer());
        next.setInstanceName(unique("it-next-consumer"));
        next.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        next.subscribe(topic, "*");
        next.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            msgs.forEach(m -> received.putIfAbsent(m.getKeys(), m));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        next.start();
        try {
            await(group + " receiving " + keys).atMost(timeout).until(() -> received.keySet().containsAll(keys));
            return Map.copyOf(received);
        } finally {
            next.shutdown();
        }
    }
}
