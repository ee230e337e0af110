package dev.orderflow.consumer.testing;

import java.nio.charset.StandardCharsets;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.order.events.OrderOutcomeJson;

/**
 * Injects messages into {@code order_topic} of the application's broker the way order-service
 * does (tag = event type, KEYS = business key), or raw bodies for poison messages; and order
 * outcomes into {@code order_outcome_topic} the way status-service does. Plain sync sends: a test
 * knows the message is stored when a send returns.
 */
public final class OrderTopicSender {

    private static volatile DefaultMQProducer producer;

    private OrderTopicSender() {
    }

    /** Sends {@code event} as order-service would; returns the broker's message id. */
    public static String send(OrderEvent event) {
        return sendRaw(OrderEventJson.toJson(event), event.tag(), event.messageKey());
    }

    /** Sends {@code outcome} to {@code order_outcome_topic} as status-service would; returns the broker's message id. */
    public static String send(OrderOutcome outcome) {
        return sendRaw(OrderOutcome.TOPIC, OrderOutcomeJson.toJson(outcome), outcome.tag(), outcome.messageKey());
    }

    /** Sends any body to order_topic with the given tag and KEYS (null for none). */
    public static String sendRaw(String body, String tag, String keys) {
        return sendRaw(OrderMessaging.TOPIC, body, tag, keys);
    }

    /** Sends any body to {@code topic} with the given tag and KEYS (null for none). */
    public static String sendRaw(String topic, String body, String tag, String keys) {
        Message message = new Message(topic, tag, body.getBytes(StandardCharsets.UTF_8));
        if (keys != null) {
            message.setKeys(keys);
        }
        try {
            SendResult result = producer().send(message);
            if (result.getSendStatus() != SendStatus.SEND_OK) {
                throw new IllegalStateException("Broker answered " + result.getSendStatus());
            }
            return result.getMsgId();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending to " + topic, e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot send to " + topic, e);
        }
    }

    private static synchronized DefaultMQProducer producer() throws MQClientException {
        if (producer == null) {
            DefaultMQProducer p = new DefaultMQProducer("test_order_sender_" + System.nanoTime());
            p.setNamesrvAddr(TopicProbe.nameServer());
            p.setInstanceName("test-order-sender");
            p.start();
            Runtime.getRuntime().addShutdownHook(new Thread(p::shutdown));
            producer = p;
        }
        return producer;
    }
}
