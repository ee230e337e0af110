package dev.orderflow.sms;

import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportParser;
import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.order.events.OrderOutcome;

/** Order events for the SMS tests, and the sms consumer's reports about them. */
final class SmsTestEvents {

    /** Longest wait for a message to be consumed and its text sent. */
    static final Duration DELIVERY = Duration.ofSeconds(30);

    private SmsTestEvents() {
    }

    /** A fresh order id (no ':' or spaces, as the contract requires). */
    static String newOrderId() {
        return "T" + UUID.randomUUID().toString().replace("-", "").substring(0, 25).toUpperCase();
    }

    /** A fresh phone number, so a test finds its own calls and texts at the fake gateway. */
    static String newPhone() {
        return "+8190" + String.format("%08d", Math.floorMod(UUID.randomUUID().getLeastSignificantBits(), 100_000_000L));
    }

    /** An event of a two-unit order worth 25.00. */
    static OrderEvent event(OrderEventType type, String orderId, String phone) {
        return OrderEvent.of(type, orderId, "C-" + orderId, phone,
                List.of(new OrderItem("SKU-1", 2, new BigDecimal("12.50"))), Instant.now());
    }

    /** The sms consumer's reports on order_result_topic about an order's event. */
    static List<ConsumerReport> reports(String orderId, OrderEventType type) {
        return TopicProbe.of(ConsumerReports.TOPIC)
                .withKey(ConsumerReports.messageKey(orderId, type, ConsumerReports.SMS))
                .stream().map(received -> ConsumerReportParser.parse(received.body())).toList();
    }

    /** Waits for the report of an order's event, then checks for a while that no second one comes. */
    static ConsumerReport awaitSingleReport(String orderId, OrderEventType type) {
        await().atMost(DELIVERY).until(() -> !reports(orderId, type).isEmpty());
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> reports(orderId, type).size() == 1);
        return reports(orderId, type).get(0);
    }

    /**
     * Sends the create of an order that completes: the create, then, once its confirmation is
     * recorded (HELD), the COMPLETED outcome the status service publishes, which releases it.
     */
    static void sendCreateOfACompletedOrder(OrderEvent create) {
        OrderTopicSender.send(create);
        complete(create.orderId());
    }

    /** The COMPLETED outcome of an order whose confirmation this service holds (sent once it is recorded). */
    static void complete(String orderId) {
        awaitStatus(OrderMessaging.messageKey(orderId, OrderEventType.CREATE), "HELD");
        OrderTopicSender.send(OrderOutcome.completed(orderId, Instant.now().truncatedTo(ChronoUnit.MILLIS)));
    }

    /** Waits until the outbox row with this business key has {@code status}; returns it. */
    static SmsDatabase.OutboxRow awaitStatus(String businessKey, String status) {
        await().atMost(DELIVERY).until(() -> {
            SmsDatabase.OutboxRow row = SmsDatabase.outboxRow(businessKey);
            return row != null && status.equals(row.status());
        });
        return SmsDatabase.outboxRow(businessKey);
    }
}
