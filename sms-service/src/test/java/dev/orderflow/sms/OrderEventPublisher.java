package dev.orderflow.sms;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.events.OrderMessaging;

/**
 * Publishes order events to order_topic of the broker the application uses (the in-process
 * broker of Dev Services), as order-service would: tag = event type, KEYS = business key. Plain
 * (non-transactional) sends: consumers cannot tell the difference. One producer per test JVM.
 */
public final class OrderEventPublisher {

    private static DefaultMQProducer producer;

    private OrderEventPublisher() {
    }

    /** A fresh order id (no ':' or spaces, as the contract requires). */
    public static String newOrderId() {
        return "T" + UUID.randomUUID().toString().replace("-", "").substring(0, 25).toUpperCase();
    }

    /** A fresh phone number, so a test can find its own texts at the fake gateway. */
    public static String newPhone() {
        return "+8190" + String.format("%08d", Math.floorMod(UUID.randomUUID().getLeastSignificantBits(), 100_000_000L));
    }

    /** An event of a two-unit order worth 25.00. */
    public static OrderEvent event(OrderEventType type, String orderId, String phone) {
        return OrderEvent.of(type, orderId, "C-" + orderId, phone,
                List.of(new OrderItem("SKU-1", 2, new BigDecimal("12.50"))), Instant.now());
    }

    public static void publish(OrderEvent event) throws Exception {
        publishRaw(event.tag(), event.messageKey(), OrderEventJson.toJson(event));
    }

    /** Any body, e.g. a poison message. */
    public static void publishRaw(String tag, String keys, String body) throws Exception {
        Message message = new Message(OrderMessaging.TOPIC, tag, keys, body.getBytes(StandardCharsets.UTF_8));
        SendResult result = producer().send(message);
        if (result.getSendStatus() != SendStatus.SEND_OK) {
            throw new IllegalStateException("broker answered " + result.getSendStatus() + " for " + keys);
        }
    }

    private static synchronized DefaultMQProducer producer() throws Exception {
        if (producer == null) {
            DefaultMQProducer created = new DefaultMQProducer("sms_service_test_publisher");
            created.setNamesrvAddr(nameServer());
            created.setInstanceName("sms-test-publisher");
            created.start();
            Runtime.getRuntime().addShutdownHook(new Thread(created::shutdown));
            producer = created;
        }
        return producer;
    }

    /** The name server the running application uses (set by Dev Services in tests). */
    public static String nameServer() {
        return ConfigProvider.getConfig().getValue("mp.messaging.connector.smallrye-rocketmq.name-server", String.class);
    }
}
