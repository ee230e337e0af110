package dev.orderflow.order.messaging;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.FailingInsertTrigger;
import dev.orderflow.order.OrderDatabase;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rocketmq.embedded.TransactionRecords;
import dev.orderflow.rocketmq.embedded.TransactionRecords.Decision;
import io.quarkus.test.junit.QuarkusTest;

/**
 * "The order row exists iff its message becomes visible", against the in-process RocketMQ broker
 * and the real MariaDB (orderflow_order_test):
 * a failing INSERT never yields a visible message, and a half message whose sender died is
 * settled by the application's check-back from the orders table.
 */
@QuarkusTest
@ExtendWith(FailingInsertTrigger.class)
class OrderMessagingTest {

    @Test
    void failedInsertNeverMakesTheMessageVisible() throws Exception {
        String customerId = FailingInsertTrigger.CUSTOMER_PREFIX + UUID.randomUUID();

        given().contentType("application/json")
                .body("{\"customerId\":\"" + customerId + "\",\"phone\":\"+819012345678\","
                        + "\"items\":[{\"sku\":\"SKU-1\",\"quantity\":1,\"unitPrice\":\"1.00\"}]}")
                .post("/orders").then()
                .statusCode(500)
                .contentType("application/problem+json");

        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isZero();
        awaitBrokerDecision("customer " + customerId,
                m -> new String(m.getBody(), StandardCharsets.UTF_8).contains(customerId), Decision.ROLLED_BACK);
        assertThat(TopicProbe.of(OrderMessaging.TOPIC).mentioning(customerId)).isEmpty();
    }

    @Test
    void checkBackCommitsAHalfMessageWhoseOrderRowExists() throws Exception {
        String orderId = OrderTransactionCheckerTest.insertOrder("CREATED");

        sendHalfMessageThenDie(orderId);

        TopicProbe probe = TopicProbe.of(OrderMessaging.TOPIC);
        await().atMost(Duration.ofSeconds(60)).until(() -> !probe.withKey(orderId + ":create").isEmpty());
        assertThat(probe.withKey(orderId + ":create")).hasSize(1);
    }

    @Test
    void checkBackRollsBackAHalfMessageWithoutOrderRow() throws Exception {
        String orderId = "01DEAD" + UUID.randomUUID().toString().replace("-", "").substring(0, 20).toUpperCase();

        sendHalfMessageThenDie(orderId);

        // UNKNOWN for 5 s (the row may still be on its way), then ROLLBACK: it must never become visible.
        String key = orderId + ":create";
        awaitBrokerDecision("key " + key, m -> key.equals(m.getKeys()), Decision.ROLLED_BACK);
        assertThat(TopicProbe.of(OrderMessaging.TOPIC).withKey(key)).isEmpty();
    }

    /** Waits until the broker has ended the matching half message's transaction, and checks how. */
    private static void awaitBrokerDecision(String described, Predicate<MessageExt> message, Decision expected) {
        await("the broker's decision on the message with " + described).atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> TransactionRecords.decision(TopicProbe.nameServer(), OrderMessaging.TOPIC, described, message),
                        decision -> {
                            assertThat(decision).isIn(Decision.UNDECIDED, expected);
                            return decision == expected;
                        });
    }

    /**
     * A second producer instance of the application's transactional producer group sends a half
     * message and dies before reporting the outcome; only the application is left to answer the
     * broker's check-back.
     */
    private static void sendHalfMessageThenDie(String orderId) throws Exception {
        OrderEvent event = OrderEvent.of(OrderEventType.CREATE, orderId, "C-CHECK", "+819012345678",
                List.of(new OrderItem("SKU-1", 1, new BigDecimal("1.00"))), Instant.now().truncatedTo(ChronoUnit.MILLIS));
        TransactionMQProducer dying = new TransactionMQProducer("order_service_tx");
        dying.setNamesrvAddr(TopicProbe.nameServer());
        dying.setInstanceName("dying-order-service-" + UUID.randomUUID());
        dying.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.UNKNOW;
            }
        });
        dying.start();
        try {
            Message message = new Message(OrderMessaging.TOPIC, event.tag(), event.messageKey(),
                    OrderEventJson.toJson(event).getBytes(StandardCharsets.UTF_8));
            TransactionSendResult result = dying.sendMessageInTransaction(message, null);
            assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(result.getLocalTransactionState()).isEqualTo(LocalTransactionState.UNKNOW);
        } finally {
            dying.shutdown();
        }
    }
}
