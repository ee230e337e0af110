package dev.orderflow.consumer.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Records every message that reaches a topic of the broker the application under test uses, with
 * a plain push consumer of its own group reading from the first offset: what it sees is what any
 * consumer group would see. One probe per topic per test JVM.
 */
public final class TopicProbe {

    private static final Map<String, TopicProbe> PROBES = new ConcurrentHashMap<>();

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final DefaultMQPushConsumer consumer;

    private TopicProbe(String nameServer, String consumerGroup, String topic) {
        consumer = new DefaultMQPushConsumer(consumerGroup);
        consumer.setNamesrvAddr(nameServer);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setInstanceName("probe-" + consumerGroup.replace('%', '_') + "-" + topic.replace('%', '_'));
        // Finds topics created after it started (e.g. the group's %RETRY% topic on a first re-drive) within a second.
        consumer.setPollNameServerInterval(1000);
        try {
            consumer.subscribe(topic, "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
                msgs.forEach(m -> received.add(Received.of(m)));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("Cannot start a probe on " + topic + " at " + nameServer, e);
        }
    }

    /** The probe of {@code topic} on the application's broker (Dev Services or configured). */
    public static TopicProbe of(String topic) {
        return PROBES.computeIfAbsent(topic, t -> start("test_probe_" + Math.abs(t.hashCode()) + "_" + System.nanoTime(), t));
    }

    /**
     * A probe that consumes {@code topic} as {@code consumerGroup} itself, so it also receives what
     * is sent to that group only ({@code %RETRY%<group>}, e.g. a re-drive from its DLQ). Use it only
     * where no real consumer of that group runs in the test JVM: it would share their messages.
     */
    public static TopicProbe ofGroup(String consumerGroup, String topic) {
        return PROBES.computeIfAbsent(consumerGroup + "@" + topic, k -> start(consumerGroup, topic));
    }

    private static TopicProbe start(String consumerGroup, String topic) {
        TopicProbe probe = new TopicProbe(nameServer(), consumerGroup, topic);
        Runtime.getRuntime().addShutdownHook(new Thread(probe.consumer::shutdown));
        return probe;
    }

    /** The name server address the application under test uses. */
    public static String nameServer() {
        return ConfigProvider.getConfig().getValue("mp.messaging.connector.smallrye-rocketmq.name-server", String.class);
    }

    /** Messages whose KEYS equal {@code key}. */
    public List<Received> withKey(String key) {
        return received.stream().filter(r -> key.equals(r.keys())).toList();
    }

    /** Messages whose KEYS start with {@code prefix} (e.g. an order id and ':'). */
    public List<Received> withKeyPrefix(String prefix) {
        return received.stream().filter(r -> r.keys() != null && r.keys().startsWith(prefix)).toList();
    }

    /** Messages whose body mentions {@code text} (e.g. a test's unique customer id). */
    public List<Received> mentioning(String text) {
        return received.stream().filter(r -> r.body().contains(text)).toList();
    }

    /** The distinct KEYS of every message received so far. */
    public Set<String> keys() {
        return received.stream().map(Received::keys).collect(Collectors.toSet());
    }

    /** Everything received so far. */
    public List<Received> all() {
        return List.copyOf(received);
    }

    /** One received message. */
    public record Received(String msgId, String keys, String tags, String body, Map<String, String> properties,
            int reconsumeTimes) {

        static Received of(MessageExt m) {
            return new Received(m.getMsgId(), m.getKeys(), m.getTags(), new String(m.getBody(), StandardCharsets.UTF_8),
                    Map.copyOf(m.getProperties()), m.getReconsumeTimes());
        }

        public String property(String name) {
            return properties.get(name);
        }
    }
}
