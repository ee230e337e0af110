package dev.orderflow.sms;

import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.event;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.order.events.OrderEventType;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * When an accepted text's SENT is recorded ({@code sms-service.dispatch.record-delay}): with the
 * next round's claim when the next consumed text comes within the delay, otherwise by a sweep of
 * its own after it. The periodic sweep runs once a minute here, so neither can be it. Real broker,
 * real MariaDB, the fake provider over HTTP.
 */
@QuarkusTest
@TestProfile(SmsSentRecordingTest.RareSweeps.class)
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SmsSentRecordingTest {

    /** SENT waits up to 3 s; the periodic sweep once a minute; the lease above the 2 s longest send plus that. */
    public static class RareSweeps implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sms-service.dispatch.record-delay", "PT3S",
                    "sms-service.dispatch.sweep-interval", "PT60S",
                    "sms-service.dispatch.claim-lease", "PT10S");
        }
    }

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    @Test
    void aTextAcceptedAloneIsRecordedSentByItsOwnSweepAfterTheRecordDelay() {
        String orderId = newOrderId();
        String phone = newPhone();
        OrderTopicSender.send(event(OrderEventType.CREATE, orderId, phone));
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
        OrderTopicSender.send(event(OrderEventType.CREATE, firstOrder, firstPhone));
        String firstKey = firstOrder + ":create";
        await().atMost(SmsTestEvents.DELIVERY).alias("first text accepted").until(() -> accepted(firstPhone));
        long acceptedAt = System.nanoTime();
        assertThat(SmsDatabase.outboxRow(firstKey).status()).as("first text's SENT waits").isEqualTo("PENDING");

        String secondOrder = newOrderId();
        String secondPhone = newPhone();
        OrderTopicSender.send(event(OrderEventType.CREATE, secondOrder, secondPhone));
        awaitStatus(firstKey, "SENT");
        // Recorded by the sweep the second text's commit woke, well before the first's own sweep at 3 s.
        assertThat(Duration.ofNanos(System.nanoTime() - acceptedAt)).as("first SENT recorded with the second's claim")
                .isLessThan(Duration.ofMillis(2500));
        await().atMost(SmsTestEvents.DELIVERY).alias("second text accepted").until(() -> accepted(secondPhone));
        awaitStatus(secondOrder + ":create", "SENT");
        assertThat(gateway.callsTo(firstPhone)).as("first: one call").hasSize(1);
        assertThat(gateway.callsTo(secondPhone)).as("second: one call").hasSize(1);
    }

    private boolean accepted(String phone) {
        return gateway.callsTo(phone).stream().anyMatch(call -> call.answeredStatus() == 200);
    }
}
