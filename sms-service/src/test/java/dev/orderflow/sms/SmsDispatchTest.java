package dev.orderflow.sms;

import static dev.orderflow.sms.SmsTestEvents.DELIVERY;
import static dev.orderflow.sms.SmsTestEvents.awaitSingleReport;
import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.complete;
import static dev.orderflow.sms.SmsTestEvents.event;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static dev.orderflow.sms.SmsTestEvents.sendCreateOfACompletedOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.sms.FakeSmsGateway.Answer;
import dev.orderflow.sms.FakeSmsGateway.Call;
import dev.orderflow.sms.SmsDatabase.OutboxRow;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * From an order event to the customer's phone: the real in-process RocketMQ broker (Dev
 * Services), the real MariaDB (orderflow_sms_test) and a fake SMS provider over HTTP
 * ({@link FakeSmsGateway}) that, like a real one, texts each Idempotency-Key at most once.
 * Retries use the %test back-off (0.2 s doubling, at most 1 s, 5 attempts; read timeout 1 s).
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SmsDispatchTest {

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    @Test
    void createEventTextsTheCustomerOnceWithTheBusinessKeyAsIdempotencyKey() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();
        OrderEvent created = event(OrderEventType.CREATE, orderId, phone);

        sendCreateOfACompletedOrder(created);

        String key = orderId + ":create";
        OutboxRow row = awaitStatus(key, "SENT");
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.hasSentAt()).isTrue();
        assertThat(row.phone()).isEqualTo(phone);
        assertThat(gateway.callsTo(phone)).singleElement().satisfies(call -> {
            assertThat(call.idempotencyKey()).isEqualTo(key);
            assertThat(call.answeredStatus()).isEqualTo(200);
        });
        assertThat(gateway.textsTo(phone)).singleElement().satisfies(text -> assertThat(text.text())
                .isEqualTo("Order " + orderId + " confirmed: 2 items, total 25.00. Thank you!"));
        assertThat(SmsDatabase.consumeOutcome(key)).isEqualTo("DONE");
        assertThat(awaitSingleReport(orderId, OrderEventType.CREATE).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
    }

    @Test
    void theSameMessageDeliveredTenTimesRecordsOneRowAndSendsOneText() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();
        OrderEvent created = event(OrderEventType.CREATE, orderId, phone);
        long ackedBefore = ConsumedMessages.acked();

        for (int i = 0; i < 10; i++) {
            OrderTopicSender.send(created);
        }
        await().atMost(DELIVERY).until(() -> ConsumedMessages.acked() >= ackedBefore + 10);
        complete(orderId);

        String key = orderId + ":create";
        awaitStatus(key, "SENT");
        assertThat(SmsDatabase.count("select count(*) from sms_outbox where order_id = ?", orderId)).isEqualTo(1);
        assertThat(SmsDatabase.count("select count(*) from consume_record where message_key = ?", key)).isEqualTo(1);
        assertThat(gateway.callsTo(phone)).hasSize(1);
        assertThat(gateway.textsTo(phone)).hasSize(1);
        assertThat(awaitSingleReport(orderId, OrderEventType.CREATE).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
    }

    /** Texts accepted between two sweeps are recorded SENT together: each once, none sent again. */
    @Test
    void manyTextsAtOnceAreEachSentOnceAndAllRecordedSent() throws Exception {
        java.util.List<String> orderIds = new java.util.ArrayList<>();
        java.util.List<String> phones = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String orderId = newOrderId();
            String phone = newPhone();
            orderIds.add(orderId);
            phones.add(phone);
            sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));
        }

        for (int i = 0; i < orderIds.size(); i++) {
            OutboxRow row = awaitStatus(orderIds.get(i) + ":create", "SENT");
            assertThat(row.attempts()).isEqualTo(1);
            assertThat(row.hasSentAt()).isTrue();
        }
        // Past a whole claim lease (%test: 5 s): a row whose SENT had not been recorded would be sent again.
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).untilAsserted(
                () -> phones.forEach(phone -> assertThat(gateway.callsTo(phone)).hasSize(1)));
    }

    @Test
    void gatewayFailingTwiceThenAcceptingGivesOneTextAndTheSameKeyOnEveryCall() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();
        String key = orderId + ":create";
        gateway.script(key, Answer.serverError(), Answer.serverError());

        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));

        OutboxRow row = awaitStatus(key, "SENT");
        assertThat(row.attempts()).isEqualTo(3);
        assertThat(row.lastError()).isNull();
        assertThat(gateway.callsTo(phone)).extracting(Call::idempotencyKey).containsExactly(key, key, key);
        assertThat(gateway.callsTo(phone)).extracting(Call::answeredStatus).containsExactly(500, 500, 200);
        assertThat(gateway.textsTo(phone)).hasSize(1);
    }

    @Test
    void anAnswerLostToTheReadTimeoutIsRetriedWithTheSameKeySoTheCustomerGetsOneText() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();
        String key = orderId + ":create";
        // The provider texts the customer but answers after the 1 s read timeout: the service cannot
        // know the text went out, so it retries, and the provider recognises the key.
        gateway.script(key, Answer.textsButAnswersAfter(2500));

        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));

        OutboxRow row = awaitStatus(key, "SENT");
        assertThat(row.attempts()).isEqualTo(2);
        assertThat(gateway.callsTo(phone)).extracting(Call::idempotencyKey).containsExactly(key, key);
        assertThat(gateway.textsTo(phone)).hasSize(1);
    }

    @Test
    void aRefusedTextIsFailedAtOnceAndNeverTriedAgain() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();
        String key = orderId + ":create";
        gateway.script(key, Answer.badRequest());

        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));

        OutboxRow row = awaitStatus(key, "FAILED");
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.lastError()).startsWith("refused: HTTP 400");
        assertThat(row.hasSentAt()).isFalse();
        // Several sweeps (0.5 s) and longer than the whole back-off schedule: still one call.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4))
                .until(() -> gateway.callsTo(phone).size() == 1 && "FAILED".equals(SmsDatabase.outboxRow(key).status()));
        assertThat(gateway.textsTo(phone)).isEmpty();
    }

    @Test
    void aTextThatKeepsFailingTransientlyIsFailedAfterMaxAttempts() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();
        String key = orderId + ":create";
        gateway.script(key, Answer.serverError(), Answer.serverError(), Answer.serverError(), Answer.serverError(),
                Answer.serverError(), Answer.serverError());

        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));

        OutboxRow row = awaitStatus(key, "FAILED");
        assertThat(row.attempts()).isEqualTo(5);
        assertThat(row.lastError()).startsWith("gave up after 5 attempts: HTTP 500");
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> gateway.callsTo(phone).size() == 5);
        assertThat(gateway.textsTo(phone)).isEmpty();
    }
}
