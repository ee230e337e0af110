package dev.orderflow.sms;

import static dev.orderflow.sms.SmsTestEvents.DELIVERY;
import static dev.orderflow.sms.SmsTestEvents.awaitSingleReport;
import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.event;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static dev.orderflow.sms.SmsTestEvents.sendCreateOfACompletedOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A body that is not an order event: real in-process broker, real MariaDB. The shared pipeline
 * classifies it as a format failure; the connector moves it to %DLQ%sms_group after one attempt.
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PoisonMessageTest {

    private static final String POISON_BODY = "{\"eventType\":\"create\",\"orderId\":";

    @Test
    void badJsonGoesToTheDeadLetterQueueAfterOneAttemptAndTheEventBehindItIsTexted() {
        TopicProbe dlq = TopicProbe.of(RocketMQDeadLetters.dlqTopic(OrderMessaging.SMS_GROUP));
        String poisonOrder = newOrderId();
        String poisonKey = poisonOrder + ":create";
        String orderId = newOrderId();
        String phone = newPhone();

        OrderTopicSender.sendRaw(POISON_BODY, "create", poisonKey);
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));

        awaitStatus(orderId + ":create", "SENT");
        await().atMost(DELIVERY).until(() -> !dlq.withKey(poisonKey).isEmpty());
        TopicProbe.Received dead = dlq.withKey(poisonKey).get(0);
        assertThat(dead.body()).isEqualTo(POISON_BODY);
        assertThat(dead.property(RocketMQDeadLetters.ATTEMPTS)).isEqualTo("1");
        assertThat(dead.property(RocketMQDeadLetters.FAILURE_CLASS)).isEqualTo("format");
        assertThat(dead.property(RocketMQDeadLetters.FAILURE_REASON)).contains("not JSON");
        assertThat(SmsDatabase.count("select count(*) from consume_failure where consumer_group = 'sms_group' "
                + "and message_key = ? and failure_class = 'format' and permanent and attempt = 1", poisonKey))
                .isEqualTo(1);
        // Never redelivered: no second DLQ entry, no second attempt recorded, nothing written for it.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> dlq.withKey(poisonKey).size() == 1
                        && SmsDatabase.count("select count(*) from consume_failure where message_key = ?", poisonKey) == 1);
        assertThat(SmsDatabase.count("select count(*) from consume_record where message_key = ?", poisonKey)).isZero();
        assertThat(SmsDatabase.count("select count(*) from sms_outbox where business_key = ?", poisonKey)).isZero();
        ConsumerReport report = awaitSingleReport(poisonOrder, OrderEventType.CREATE);
        assertThat(report.outcome()).isEqualTo(ConsumerReport.Outcome.DEAD_LETTERED);
        assertThat(report.failureClass()).isEqualTo("format");
    }
}
