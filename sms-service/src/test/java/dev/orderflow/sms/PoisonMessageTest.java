package dev.orderflow.sms;

import static dev.orderflow.sms.OrderEventPublisher.event;
import static dev.orderflow.sms.OrderEventPublisher.newOrderId;
import static dev.orderflow.sms.OrderEventPublisher.newPhone;
import static dev.orderflow.sms.OrderEventPublisher.publish;
import static dev.orderflow.sms.OrderEventPublisher.publishRaw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

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

    private static final Duration DELIVERY = Duration.ofSeconds(30);

    @Test
    void badJsonGoesToTheDeadLetterQueueAfterOneAttemptAndTheEventBehindItIsTexted() throws Exception {
        String poisonKey = newOrderId() + ":create";
        String orderId = newOrderId();
        String phone = newPhone();

        publishRaw("create", poisonKey, "{\"eventType\":\"create\",\"orderId\":");
        publish(event(OrderEventType.CREATE, orderId, phone));

        await().atMost(DELIVERY).until(() -> {
            SmsDatabase.OutboxRow row = SmsDatabase.outboxRow(orderId + ":create");
            return row != null && "SENT".equals(row.status());
        });
        await().atMost(DELIVERY).until(() -> SmsDatabase.count(
                "select count(*) from consume_failure where consumer_group = 'sms_group' and message_key = ?",
                poisonKey) == 1);
        assertThat(SmsDatabase.count("select count(*) from consume_failure where consumer_group = 'sms_group' "
                + "and message_key = ? and failure_class = 'format' and permanent and attempt = 1 "
                + "and reason like '%not JSON%'", poisonKey)).isEqualTo(1);

        List<DeadLetterQueue.Entry> dead = DeadLetterQueue.entriesWithKey(OrderMessaging.SMS_GROUP, poisonKey, DELIVERY);
        assertThat(dead).singleElement().satisfies(entry -> {
            assertThat(entry.properties()).containsEntry(RocketMQDeadLetters.FAILURE_CLASS, "format")
                    .containsEntry(RocketMQDeadLetters.ATTEMPTS, "1");
            assertThat(entry.body()).isEqualTo("{\"eventType\":\"create\",\"orderId\":");
        });
        // Never redelivered: no second attempt is recorded, nothing is written for it.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> SmsDatabase.count(
                "select count(*) from consume_failure where message_key = ?", poisonKey) == 1);
        assertThat(SmsDatabase.count("select count(*) from consume_record where message_key = ?", poisonKey)).isZero();
        assertThat(SmsDatabase.count("select count(*) from sms_outbox where business_key = ?", poisonKey)).isZero();
    }
}
