package dev.orderflow.sms;

import static dev.orderflow.sms.OrderEventPublisher.event;
import static dev.orderflow.sms.OrderEventPublisher.newOrderId;
import static dev.orderflow.sms.OrderEventPublisher.newPhone;
import static dev.orderflow.sms.OrderEventPublisher.publish;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.sms.FakeSmsGateway.Answer;
import dev.orderflow.sms.FakeSmsGateway.Call;
import dev.orderflow.sms.FakeSmsGateway.Text;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The order of a create and a cancel (SmsIntentRecorder's rule): a customer never gets the
 * cancellation notice before the confirmation, and no confirmation after the cancellation notice.
 * Real in-process broker, real MariaDB, fake SMS provider over HTTP.
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class CancelBeforeCreateTest {

    private static final Duration DELIVERY = Duration.ofSeconds(30);

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    @Test
    void aCreateArrivingAfterItsCancelSendsNothing() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();

        publish(event(OrderEventType.CANCEL, orderId, phone));
        awaitStatus(orderId + ":cancel", "SENT");
        publish(event(OrderEventType.CREATE, orderId, phone));

        await().atMost(DELIVERY).until(() -> SmsDatabase.consumeOutcome(orderId + ":create") != null);
        assertThat(SmsDatabase.consumeOutcome(orderId + ":create"))
                .startsWith("REJECTED: order " + orderId + " was cancelled before its create arrived");
        assertThat(SmsDatabase.outboxRowsOfOrder(orderId)).extracting(SmsDatabase.OutboxRow::eventType)
                .containsExactly("CANCEL");
        assertThat(gateway.textsTo(phone)).extracting(Text::text)
                .containsExactly("Order " + orderId + " has been cancelled.");
    }

    @Test
    void aCancelNoticeWaitsUntilItsOrdersConfirmationIsSent() throws Exception {
        String orderId = newOrderId();
        String phone = newPhone();
        String createKey = orderId + ":create";
        String cancelKey = orderId + ":cancel";
        // The confirmation fails three times (about 1.4 s of back-off) while the cancel is already recorded.
        gateway.script(createKey, Answer.serverError(), Answer.serverError(), Answer.serverError());

        publish(event(OrderEventType.CREATE, orderId, phone));
        await().atMost(DELIVERY).until(() -> !gateway.callsWithKey(createKey).isEmpty());
        publish(event(OrderEventType.CANCEL, orderId, phone));
        await().atMost(DELIVERY).until(() -> SmsDatabase.outboxRow(cancelKey) != null);

        awaitStatus(cancelKey, "SENT");
        assertThat(SmsDatabase.outboxRow(createKey).status()).isEqualTo("SENT");
        assertThat(SmsDatabase.outboxRow(createKey).attempts()).isEqualTo(4);
        assertThat(gateway.callsTo(phone)).extracting(Call::idempotencyKey)
                .containsExactly(createKey, createKey, createKey, createKey, cancelKey);
        assertThat(gateway.textsTo(phone)).extracting(Text::idempotencyKey).containsExactly(createKey, cancelKey);
    }

    @Test
    void createAndCancelArrivingTogetherNeverTextTheCancellationFirst() throws Exception {
        int orders = 8;
        List<String> orderIds = new ArrayList<>();
        List<String> phones = new ArrayList<>();
        ExecutorService publishers = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < orders; i++) {
                String orderId = newOrderId();
                String phone = newPhone();
                orderIds.add(orderId);
                phones.add(phone);
                // Both events of one order at the same moment, from two threads, cancel first half the time.
                OrderEventType first = i % 2 == 0 ? OrderEventType.CANCEL : OrderEventType.CREATE;
                OrderEventType second = first == OrderEventType.CANCEL ? OrderEventType.CREATE : OrderEventType.CANCEL;
                CompletableFuture.allOf(
                        CompletableFuture.runAsync(() -> publishQuietly(first, orderId, phone), publishers),
                        CompletableFuture.runAsync(() -> publishQuietly(second, orderId, phone), publishers)).join();
            }
        } finally {
            publishers.shutdown();
        }

        for (int i = 0; i < orders; i++) {
            String orderId = orderIds.get(i);
            awaitStatus(orderId + ":cancel", "SENT");
            await().atMost(DELIVERY).until(() -> SmsDatabase.consumeOutcome(orderId + ":create") != null);
            await().atMost(DELIVERY).until(() -> SmsDatabase.outboxRowsOfOrder(orderId).stream()
                    .allMatch(row -> !"PENDING".equals(row.status())));
            List<String> texted = gateway.textsTo(phones.get(i)).stream().map(Text::idempotencyKey).toList();
            assertThat(texted).as("texts of order %s", orderId)
                    .isIn(List.of(orderId + ":cancel"), List.of(orderId + ":create", orderId + ":cancel"));
        }
    }

    private static void publishQuietly(OrderEventType type, String orderId, String phone) {
        try {
            publish(event(type, orderId, phone));
        } catch (Exception e) {
            throw new IllegalStateException("publishing " + type + " of " + orderId, e);
        }
    }

    private static void awaitStatus(String key, String status) {
        await().atMost(DELIVERY).until(() -> {
            SmsDatabase.OutboxRow row = SmsDatabase.outboxRow(key);
            return row != null && status.equals(row.status());
        });
    }
}
