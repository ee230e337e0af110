package dev.orderflow.status;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportJson;
import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.RocketMQDeadLetters;

/**
 * Sends what the other services would send, with a plain RocketMQ producer, to the broker the
 * application under test uses: order events (order-service), reports (the consumers' relays) and
 * dead letters (the connector of a consumer that gave up). One producer per test JVM.
 */
public final class StatusBroker {

    private static DefaultMQProducer producer;

    private StatusBroker() {
    }

    private static synchronized DefaultMQProducer producer() throws MQClientException {
        if (producer == null) {
            DefaultMQProducer p = new DefaultMQProducer("status_test_sender");
            p.setNamesrvAddr(ConfigProvider.getConfig().getValue(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, String.class));
            p.setInstanceName("status-test-sender-" + System.nanoTime());
            p.start();
            Runtime.getRuntime().addShutdownHook(new Thread(p::shutdown));
            producer = p;
        }
        return producer;
    }

    /** The create or cancel event of {@code orderId}, created at {@code occurredAt}. */
    public static OrderEvent orderEvent(OrderEventType type, String orderId, Instant occurredAt) {
        return OrderEvent.of(type, orderId, "customer-1", "+491700000001",
                List.of(new OrderItem("SKU-1", 2, new java.math.BigDecimal("12.50"))),
                occurredAt.truncatedTo(ChronoUnit.MILLIS));
    }

    public static void sendCreate(String orderId) {
        send(orderEvent(OrderEventType.CREATE, orderId, Instant.now()));
    }

    public static void sendCancel(String orderId) {
        send(orderEvent(OrderEventType.CANCEL, orderId, Instant.now()));
    }

    public static void send(OrderEvent event) {
        send(new Message(OrderMessaging.TOPIC, event.tag(), event.messageKey(),
                OrderEventJson.toJson(event).getBytes(StandardCharsets.UTF_8)));
    }

    public static void done(String orderId, OrderEventType type, String consumer) {
        send(ConsumerReport.done(orderId, type, consumer, Instant.now()));
    }

    public static void send(ConsumerReport report) {
        send(new Message(ConsumerReports.TOPIC, report.tag(), report.messageKey(),
                ConsumerReportJson.toJson(report).getBytes(StandardCharsets.UTF_8)));
    }

    /** An entry of {@code %DLQ%<group>} as the connector writes it after the consumer gave up on the create. */
    public static void deadLetter(String consumerGroup, String orderId, String failureClass, String reason) {
        deadLetter(consumerGroup, orderId, failureClass, reason,
                OrderEventJson.toJson(orderEvent(OrderEventType.CREATE, orderId, Instant.now())));
    }

    /** The same with the given body (e.g. one that failed to parse), keyed as the order's create. */
    public static void deadLetter(String consumerGroup, String orderId, String failureClass, String reason, String body) {
        Message entry = new Message(RocketMQDeadLetters.dlqTopic(consumerGroup), OrderEventType.CREATE.tag(),
                OrderMessaging.messageKey(orderId, OrderEventType.CREATE), body.getBytes(StandardCharsets.UTF_8));
        Map.of(RocketMQDeadLetters.FAILURE_CLASS, failureClass,
                RocketMQDeadLetters.FAILURE_REASON, reason,
                RocketMQDeadLetters.ATTEMPTS, "17",
                RocketMQDeadLetters.DEAD_LETTERED_AT, Long.toString(System.currentTimeMillis()))
                .forEach(entry::putUserProperty);
        // RocketMQ's own names (the broker sets them on a DLQ entry): not user properties. Re-drive needs the origin.
        MessageAccessor.putProperty(entry, RocketMQDeadLetters.ORIGIN_TOPIC, OrderMessaging.TOPIC);
        MessageAccessor.putProperty(entry, RocketMQDeadLetters.ORIGIN_MESSAGE_ID, "origin-" + orderId);
        send(entry);
    }

    private static void send(Message message) {
        try {
            SendResult result = producer().send(message);
            if (result.getSendStatus() != SendStatus.SEND_OK) {
                throw new IllegalStateException("Broker answered " + result.getSendStatus() + " for " + message.getKeys());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted sending " + message.getKeys(), e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot send " + message.getKeys() + " to " + message.getTopic(), e);
        }
    }
}
