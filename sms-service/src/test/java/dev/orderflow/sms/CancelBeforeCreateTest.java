package dev.orderflow.sms;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.sms.SmsTestEvents.DELIVERY;
import static dev.orderflow.sms.SmsTestEvents.awaitSingleReport;
import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.event;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.CancelBeforeCreateGuard;
import dev.orderflow.consumer.testing.Deliveries;
import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.sms.FakeSmsGateway.Answer;
import dev.orderflow.sms.FakeSmsGateway.Call;
import dev.orderflow.sms.FakeSmsGateway.Text;
import dev.orderflow.sms.intent.OrderEventConsumer;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The order of a create and a cancel (SmsIntentRecorder, CancelBeforeCreateGuard): a customer
 * never gets the cancellation notice before the confirmation; an order cancelled before it
 * completed gets the notice only (its held confirmation is withdrawn), and nothing at all when the
 * cancel was consumed first. Real in-process broker, real MariaDB, fake SMS provider over HTTP.
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class CancelBeforeCreateTest {

    @Inject
    OrderEventConsumer consumer;

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    @Test
    void aCancelBeforeItsCreateTextsNothingAndTheLateCreateIsRejected() {
        String orderId = newOrderId();
        String phone = newPhone();

        OrderTopicSender.send(event(OrderEventType.CANCEL, orderId, phone));
        assertThat(awaitSingleReport(orderId, OrderEventType.CANCEL).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        OrderTopicSender.send(event(OrderEventType.CREATE, orderId, phone));

        ConsumerReport createReport = awaitSingleReport(orderId, OrderEventType.CREATE);
        assertThat(createReport.outcome()).isEqualTo(ConsumerReport.Outcome.REJECTED);
        assertThat(createReport.reason()).isEqualTo(CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE);
        assertThat(SmsDatabase.consumeOutcome(orderId + ":create"))
                .isEqualTo("REJECTED: " + CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE);
        assertThat(SmsDatabase.outboxRowsOfOrder(orderId)).isEmpty();
        given().queryParam("orderId", orderId).get("/sms").then().statusCode(200).body("size()", equalTo(0));
        // Several dispatcher sweeps later, still nothing reached the provider.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> gateway.callsTo(phone).isEmpty());
    }

    @Test
    void aCancelNoticeWaitsUntilItsOrdersConfirmationIsSent() {
        String orderId = newOrderId();
        String phone = newPhone();
        String createKey = orderId + ":create";
        String cancelKey = orderId + ":cancel";
        // The confirmation fails three times (about 1.4 s of back-off) while the cancel is already recorded.
        gateway.script(createKey, Answer.serverError(), Answer.serverError(), Answer.serverError());

        OrderTopicSender.send(event(OrderEventType.CREATE, orderId, phone));
        SmsTestEvents.complete(orderId);
        await().atMost(DELIVERY).until(() -> !gateway.callsWithKey(createKey).isEmpty());
        OrderTopicSender.send(event(OrderEventType.CANCEL, orderId, phone));
        await().atMost(DELIVERY).until(() -> SmsDatabase.outboxRow(cancelKey) != null);

        awaitStatus(cancelKey, "SENT");
        assertThat(SmsDatabase.outboxRow(createKey).status()).isEqualTo("SENT");
        assertThat(SmsDatabase.outboxRow(createKey).attempts()).isEqualTo(4);
        assertThat(gateway.callsTo(phone)).extracting(Call::idempotencyKey)
                .containsExactly(createKey, createKey, createKey, createKey, cancelKey);
        assertThat(gateway.textsTo(phone)).extracting(Text::text).containsExactly(
                "Order " + orderId + " confirmed: 2 items, total 25.00. Thank you!",
                "Order " + orderId + " has been cancelled.");
    }

    @Test
    void createAndCancelArrivingTogetherNeverTextTheCancellationFirst() {
        int orders = 8;
        List<String> orderIds = new ArrayList<>();
        List<String> phones = new ArrayList<>();
        ExecutorService senders = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < orders; i++) {
                String orderId = newOrderId();
                String phone = newPhone();
                orderIds.add(orderId);
                phones.add(phone);
                // Both events of one order at the same moment, from two threads.
                CompletableFuture.allOf(
                        CompletableFuture.runAsync(
                                () -> OrderTopicSender.send(event(OrderEventType.CANCEL, orderId, phone)), senders),
                        CompletableFuture.runAsync(
                                () -> OrderTopicSender.send(event(OrderEventType.CREATE, orderId, phone)), senders))
                        .join();
            }
        } finally {
            senders.shutdown();
        }

        for (int i = 0; i < orders; i++) {
            String orderId = orderIds.get(i);
            await().atMost(DELIVERY).until(() -> SmsDatabase.consumeOutcome(orderId + ":create") != null
                    && SmsDatabase.consumeOutcome(orderId + ":cancel") != null);
            await().atMost(DELIVERY).until(() -> SmsDatabase.outboxRowsOfOrder(orderId).stream()
                    .noneMatch(row -> "PENDING".equals(row.status()) || "HELD".equals(row.status())));
            // Cancelled before it completed: never confirmed. The cancel first: nothing; the create first: the notice.
            List<String> texted = gateway.textsTo(phones.get(i)).stream().map(Text::idempotencyKey).toList();
            assertThat(texted).as("texts of order %s", orderId).isIn(List.of(), List.of(orderId + ":cancel"));
        }
    }

    /**
     * One batch holding an order's create and cancel and another order's create: the outbox rows
     * are written together at the batch's end, one per event; the cancelled order's confirmation is
     * withdrawn before it was ever written, the other waits for its order to complete.
     */
    @Test
    void aCreateAndItsCancelInOneBatchWithdrawTheConfirmationAndTextTheNotice() throws Exception {
        String cancelled = newOrderId();
        String kept = newOrderId();
        String phone = newPhone();
        Deliveries.Delivered delivered = Deliveries.batchOf(List.of(event(OrderEventType.CREATE, cancelled, phone),
                event(OrderEventType.CANCEL, cancelled, phone), event(OrderEventType.CREATE, kept, phone)),
                OrderMessaging.SMS_GROUP);

        consumer.onOrderEvent(delivered.batch()).toCompletableFuture().get(60, TimeUnit.SECONDS);

        assertThat(delivered.acks()).isEqualTo(1);
        assertThat(SmsDatabase.outboxRowsOfOrder(cancelled)).extracting(SmsDatabase.OutboxRow::eventType)
                .containsExactly("CREATE", "CANCEL");
        assertThat(SmsDatabase.outboxRow(cancelled + ":create").status()).isEqualTo("WITHDRAWN");
        assertThat(SmsDatabase.outboxRowsOfOrder(kept)).extracting(SmsDatabase.OutboxRow::eventType)
                .containsExactly("CREATE");
        awaitStatus(cancelled + ":cancel", "SENT");
        SmsTestEvents.complete(kept);
        awaitStatus(kept + ":create", "SENT");
        assertThat(gateway.textsTo(phone)).extracting(Text::idempotencyKey)
                .containsExactlyInAnyOrder(cancelled + ":cancel", kept + ":create");
        assertThat(SmsDatabase.outboxRow(cancelled + ":create").status()).isEqualTo("WITHDRAWN");
    }
}
