package dev.orderflow.sms;

import static dev.orderflow.sms.SmsTestEvents.DELIVERY;
import static dev.orderflow.sms.SmsTestEvents.awaitSingleReport;
import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.event;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.CancelBeforeCreateGuard;
import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.sms.FakeSmsGateway.Answer;
import dev.orderflow.sms.FakeSmsGateway.Call;
import dev.orderflow.sms.FakeSmsGateway.Text;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Texts by how an order ended: the confirmation is held until the status service reports the order
 * COMPLETED, then sent once; an order that failed gets no confirmation but exactly one text saying
 * it could not be fulfilled, whichever of its create and fail events arrives first, also while the
 * gateway fails for a while. Real in-process broker, real MariaDB, fake SMS provider over HTTP.
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class OrderFailureTextsTest {

    private static final OrderFailure SHORT_STOCK = new OrderFailure("inventory", "business",
            "insufficient stock for SKU-1: 2 requested, 1 available");

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    @Test
    void theConfirmationIsHeldUntilTheOrderCompletesThenSentOnce() {
        String orderId = newOrderId();
        String phone = newPhone();
        String createKey = orderId + ":create";

        OrderTopicSender.send(event(OrderEventType.CREATE, orderId, phone));
        assertThat(awaitSingleReport(orderId, OrderEventType.CREATE).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        assertThat(awaitStatus(createKey, "HELD").attempts()).isZero();
        assertThat(gateway.callsTo(phone)).isEmpty();

        Instant completedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        OrderTopicSender.send(OrderOutcome.completed(orderId, completedAt));
        OrderTopicSender.send(OrderOutcome.completed(orderId, completedAt));

        awaitStatus(createKey, "SENT");
        assertThat(gateway.textsTo(phone)).extracting(Text::idempotencyKey).containsExactly(createKey);
        // Both outcomes were read (a later, unrelated one behind them arrived too) and the text went once.
        String later = newOrderId();
        OrderTopicSender.send(event(OrderEventType.CREATE, later, newPhone()));
        SmsTestEvents.complete(later);
        awaitStatus(later + ":create", "SENT");
        assertThat(gateway.callsWithKey(createKey)).hasSize(1);
    }

    @Test
    void aFailedOrderIsNeverConfirmedAndGetsOneFailureText() {
        String orderId = newOrderId();
        String phone = newPhone();
        OrderEvent create = event(OrderEventType.CREATE, orderId, phone);
        OrderEvent fail = OrderEvent.failed(orderId, create.customerId(), phone, create.items(), SHORT_STOCK,
                Instant.now());

        OrderTopicSender.send(create);
        awaitStatus(orderId + ":create", "HELD");
        OrderTopicSender.send(fail);
        OrderTopicSender.send(fail);

        awaitStatus(orderId + ":fail", "SENT");
        assertThat(awaitSingleReport(orderId, OrderEventType.FAIL).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        assertThat(SmsDatabase.outboxRow(orderId + ":create").status()).isEqualTo("WITHDRAWN");
        assertThat(gateway.textsTo(phone)).extracting(Text::text)
                .containsExactly("Sorry, order " + orderId + " could not be fulfilled and has been closed.");
        // A COMPLETED outcome cannot come for a failed order; if one did, the withdrawn text stays withdrawn.
        OrderTopicSender.send(OrderOutcome.completed(orderId, Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        String later = newOrderId();
        OrderTopicSender.send(event(OrderEventType.CREATE, later, newPhone()));
        SmsTestEvents.complete(later);
        awaitStatus(later + ":create", "SENT");
        assertThat(SmsDatabase.outboxRow(orderId + ":create").status()).isEqualTo("WITHDRAWN");
        assertThat(gateway.callsTo(phone)).hasSize(1);
    }

    @Test
    void aFailBeforeItsCreateTextsTheFailureAndTheLateCreateRecordsNothing() {
        String orderId = newOrderId();
        String phone = newPhone();
        OrderEvent create = event(OrderEventType.CREATE, orderId, phone);

        OrderTopicSender.send(OrderEvent.failed(orderId, create.customerId(), phone, create.items(), SHORT_STOCK,
                Instant.now()));
        awaitStatus(orderId + ":fail", "SENT");
        OrderTopicSender.send(create);

        ConsumerReport createReport = awaitSingleReport(orderId, OrderEventType.CREATE);
        assertThat(createReport.outcome()).isEqualTo(ConsumerReport.Outcome.REJECTED);
        assertThat(createReport.reason()).isEqualTo(CancelBeforeCreateGuard.FAILED_BEFORE_CREATE);
        assertThat(SmsDatabase.outboxRowsOfOrder(orderId)).extracting(SmsDatabase.OutboxRow::eventType)
                .containsExactly("FAIL");
        assertThat(gateway.textsTo(phone)).extracting(Text::idempotencyKey).containsExactly(orderId + ":fail");
    }

    @Test
    void aGatewayFailingWhileTheFailureTextIsDueIsRetriedAndTextsOnce() {
        String orderId = newOrderId();
        String phone = newPhone();
        String failKey = orderId + ":fail";
        gateway.script(failKey, Answer.serverError(), Answer.serverError());
        OrderEvent create = event(OrderEventType.CREATE, orderId, phone);

        OrderTopicSender.send(create);
        awaitStatus(orderId + ":create", "HELD");
        OrderTopicSender.send(OrderEvent.failed(orderId, create.customerId(), phone, create.items(), SHORT_STOCK,
                Instant.now()));

        SmsDatabase.OutboxRow sent = awaitStatus(failKey, "SENT");
        assertThat(sent.attempts()).isEqualTo(3);
        assertThat(gateway.callsWithKey(failKey)).extracting(Call::idempotencyKey).containsOnly(failKey).hasSize(3);
        assertThat(gateway.textsTo(phone)).extracting(Text::idempotencyKey).containsExactly(failKey);
        await().atMost(DELIVERY).until(() -> "WITHDRAWN".equals(SmsDatabase.outboxRow(orderId + ":create").status()));
    }
}
