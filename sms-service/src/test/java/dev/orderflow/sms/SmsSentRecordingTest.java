package dev.orderflow.sms;

import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.event;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static dev.orderflow.sms.SmsTestEvents.sendCreateOfACompletedOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.sms.FakeSmsGateway.Answer;
import dev.orderflow.sms.FakeSmsGateway.Call;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * When an accepted text's SENT is recorded ({@code sms-service.dispatch.record-delay}): with the
 * next round's claim when the next consumed text comes within the delay, otherwise by a sweep of
 * its own after it; a text not accepted wakes a sweep at once. The periodic sweep runs once a
 * minute here, so none of these can be it. Real broker,
 * real MariaDB, the fake provider over HTTP.
 */
@QuarkusTest
@TestProfile(SmsSentRecordingTest.RareSweeps.class)
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SmsSentRecordingTest {

    /**
     * SENT waits up to 3 s; the periodic sweep once a minute; answers awaited 5 s; the lease above
     * the 6 s longest send plus the 3 s.
     */
    public static class RareSweeps implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sms-service.dispatch.record-delay", "PT3S",
                    "sms-service.dispatch.sweep-interval", "PT60S",
                    "sms-service.gateway.read-timeout", "PT5S",
                    "sms-service.dispatch.claim-lease", "PT15S");
        }
    }

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    @Test
    void aTextAcceptedAloneIsRecordedSentByItsOwnSweepAfterTheRecordDelay() {
        String orderId = newOrderId();
        String phone = newPhone();
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));
        String key = orderId + ":create";

        await().atMost(SmsTestEvents.DELIVERY).alias("text accepted").until(() -> accepted(phone));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).alias("SENT not recorded at once")
                .until(() -> "PENDING".equals(SmsDatabase.outboxRow(key).status()));
        await().atMost(Duration.ofSeconds(8)).alias("SENT recorded after the 3 s delay, without a periodic sweep")
                .until(() -> "SENT".equals(SmsDatabase.outboxRow(key).status()));
        assertThat(gateway.callsTo(phone)).as("one call").hasSize(1);
    }

    @Test
    void aTextsSentIsRecordedWithTheNextTextsClaimWithinTheRecordDelay() {
        String firstOrder = newOrderId();
        String firstPhone = newPhone();
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, firstOrder, firstPhone));
        String firstKey = firstOrder + ":create";
        await().atMost(SmsTestEvents.DELIVERY).alias("first text accepted").until(() -> accepted(firstPhone));
        long acceptedAt = System.nanoTime();
        assertThat(SmsDatabase.outboxRow(firstKey).status()).as("first text's SENT waits").isEqualTo("PENDING");

        String secondOrder = newOrderId();
        String secondPhone = newPhone();
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, secondOrder, secondPhone));
        awaitStatus(firstKey, "SENT");
        // Recorded by the sweep the second text's commit woke, well before the first's own sweep at 3 s.
        assertThat(Duration.ofNanos(System.nanoTime() - acceptedAt)).as("first SENT recorded with the second's claim")
                .isLessThan(Duration.ofMillis(2500));
        await().atMost(SmsTestEvents.DELIVERY).alias("second text accepted").until(() -> accepted(secondPhone));
        awaitStatus(secondOrder + ":create", "SENT");
        assertThat(gateway.callsTo(firstPhone)).as("first: one call").hasSize(1);
        assertThat(gateway.callsTo(secondPhone)).as("second: one call").hasSize(1);
    }

    @Test
    void aRefusedConfirmationWakesASweepAtOnceSoItsCancellationNoticeGoesOut() {
        String orderId = newOrderId();
        String phone = newPhone();
        String createKey = orderId + ":create";
        String cancelKey = orderId + ":cancel";
        // Refused after 2 s; meanwhile the cancellation notice is recorded, not due while its confirmation is PENDING.
        gateway.script(createKey, new Answer(400, false, 2000));
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));
        await().atMost(SmsTestEvents.DELIVERY).until(() -> !gateway.callsWithKey(createKey).isEmpty());
        OrderTopicSender.send(event(OrderEventType.CANCEL, orderId, phone));
        await().atMost(SmsTestEvents.DELIVERY).until(() -> SmsDatabase.outboxRow(cancelKey) != null);
        assertThat(SmsDatabase.outboxRow(createKey).status()).as("confirmation still being sent").isEqualTo("PENDING");
        assertThat(gateway.callsWithKey(cancelKey)).as("notice held back meanwhile").isEmpty();

        awaitStatus(createKey, "FAILED");
        // Neither the periodic sweep (a minute) nor a record-delay sweep (3 s, for accepted texts) could be this one.
        await().atMost(Duration.ofMillis(2500)).alias("notice sent right after the refusal")
                .until(() -> !gateway.callsWithKey(cancelKey).isEmpty());
        awaitStatus(cancelKey, "SENT");
        assertThat(gateway.callsTo(phone)).extracting(Call::idempotencyKey).containsExactly(createKey, cancelKey);
    }

    private boolean accepted(String phone) {
        return gateway.callsTo(phone).stream().anyMatch(call -> call.answeredStatus() == 200);
    }
}
