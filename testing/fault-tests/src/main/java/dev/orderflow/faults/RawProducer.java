package dev.orderflow.faults;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.exception.RemotingException;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.suite.OrderStream;
import dev.orderflow.suite.OrderStream.AcceptedOrder;

/**
 * A plain (non-transactional) producer on {@code order_topic} for the duplicate and poison
 * faults: it sends what order-service would have sent (same KEYS, tag and JSON contract), or
 * what it never would.
 */
public final class RawProducer implements AutoCloseable {

    private final DefaultMQProducer producer;

    /** @param rpcHook signs its requests on a broker with access control; null on one without */
    public RawProducer(String nameServerAddress, RPCHook rpcHook) {
        producer = new DefaultMQProducer("fault_tests_injector", rpcHook);
        producer.setNamesrvAddr(nameServerAddress);
        producer.setInstanceName("fault-tests-" + ProcessHandle.current().pid());
        try {
            producer.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("Injector producer did not start", e);
        }
    }

    /** The event of an accepted order again, with its key: consumers must not apply it a second time. */
    public void resend(AcceptedOrder order, OrderEventType type) {
        send(OrderEvent.of(type, order.orderId(), order.customerId(), OrderStream.PHONE, order.items(),
                Instant.now().truncatedTo(ChronoUnit.MILLIS)));
    }

    /** A create event for an order nobody placed, with a SKU no inventory knows: a business failure. */
    public void unknownSku(String orderId, String customerId) {
        send(OrderEvent.of(OrderEventType.CREATE, orderId, customerId, OrderStream.PHONE,
                List.of(new OrderItem("FAULT-NO-SUCH-SKU", 1, java.math.BigDecimal.ONE)),
                Instant.now().truncatedTo(ChronoUnit.MILLIS)));
    }

    /** A body that is not JSON under a well-formed create key: a format failure. */
    public void malformed(String orderId) {
        send(new Message(OrderMessaging.TOPIC, OrderMessaging.TAG_CREATE,
                OrderMessaging.messageKey(orderId, OrderEventType.CREATE),
                "{\"orderId\": \"unterminated".getBytes(StandardCharsets.UTF_8)));
    }

    private void send(OrderEvent event) {
        send(new Message(OrderMessaging.TOPIC, event.tag(), event.messageKey(),
                OrderEventJson.toJson(event).getBytes(StandardCharsets.UTF_8)));
    }

    private void send(Message message) {
        try {
            SendResult result = producer.send(message, 10_000);
            if (result.getSendStatus() != SendStatus.SEND_OK) {
                throw new IllegalStateException("Injected message " + message.getKeys() + " not stored: " + result);
            }
        } catch (MQClientException | RemotingException | MQBrokerException e) {
            throw new IllegalStateException("Cannot inject " + message.getKeys(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while injecting " + message.getKeys(), e);
        }
    }

    @Override
    public void close() {
        producer.shutdown();
    }
}
