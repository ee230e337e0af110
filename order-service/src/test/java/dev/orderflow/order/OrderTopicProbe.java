package dev.orderflow.order;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.orderflow.order.events.OrderMessaging;

/**
 * A plain RocketMQ consumer (own group, from the first offset) on order_topic of the broker the
 * application talks to: what it sees is what every consumer group would see. One per test JVM.
 */
public final class OrderTopicProbe {

    private static volatile OrderTopicProbe instance;

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final DefaultMQPushConsumer consumer;

    private OrderTopicProbe(String nameServer) throws MQClientException {
        consumer = new DefaultMQPushConsumer("order_service_test_probe_" + System.nanoTime());
        consumer.setNamesrvAddr(nameServer);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setInstanceName("order-topic-probe");
        consumer.subscribe(OrderMessaging.TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            msgs.forEach(m -> received.add(new Received(m.getKeys(), m.getTags(),
                    new String(m.getBody(), StandardCharsets.UTF_8))));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
    }

    /** The probe on the broker the running application uses (Dev Services or configured). */
    public static synchronized OrderTopicProbe get() throws MQClientException {
        if (instance == null) {
            instance = new OrderTopicProbe(nameServer());
            Runtime.getRuntime().addShutdownHook(new Thread(instance.consumer::shutdown));
        }
        return instance;
    }

    public static String nameServer() {
        return ConfigProvider.getConfig().getValue("mp.messaging.connector.smallrye-rocketmq.name-server", String.class);
    }

    /** Messages whose KEYS equal {@code key}. */
    public List<Received> withKey(String key) {
        return received.stream().filter(r -> key.equals(r.keys())).toList();
    }

    /** The distinct KEYS of every message received so far. */
    public java.util.Set<String> keys() {
        return received.stream().map(Received::keys).collect(java.util.stream.Collectors.toSet());
    }

    /** Messages whose body mentions {@code text} (e.g. a test's unique customer id). */
    public List<Received> mentioning(String text) {
        return received.stream().filter(r -> r.body().contains(text)).toList();
    }

    public record Received(String keys, String tags, String body) {
    }
}
