package dev.orderflow.inventory;

import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportParser;
import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rest.fuzz.ApiCallers;
import io.restassured.specification.RequestSpecification;

/** Test vocabulary: orders, stock levels and what the service committed and reported. */
final class Inventory {

    /** A request as an inventory manager: the only role that sets stock (any role reads it). */
    static RequestSpecification asInventoryManager() {
        return ApiCallers.asUser("ivan", "inventory-manager");
    }

    static final String GROUP = OrderMessaging.INVENTORY_GROUP;
    static final Duration PROCESSED = Duration.ofSeconds(60);

    private Inventory() {
    }

    /** A SKU no other test uses. */
    static String newSku() {
        return "SKU-" + UUID.randomUUID().toString().substring(0, 13);
    }

    static String newOrderId() {
        return "O-" + UUID.randomUUID();
    }

    /** {@code PUT /stock/{sku}} through the API. */
    static void setStock(String sku, long available) {
        asInventoryManager().contentType("application/json").body(Map.of("available", available))
                .put("/stock/{sku}", sku).then().statusCode(200);
    }

    /** Lines as (sku, quantity) pairs; unit price 1.00. */
    static OrderEvent create(String orderId, Object... skuAndQuantity) {
        return event(OrderEventType.CREATE, orderId, skuAndQuantity);
    }

    static OrderEvent cancel(OrderEvent create) {
        return OrderEvent.of(OrderEventType.CANCEL, create.orderId(), create.customerId(), create.phone(),
                create.items(), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /** The fail event of the order, as order-service sends it once the order failed. */
    static OrderEvent fail(OrderEvent create, String reason) {
        return OrderEvent.failed(create.orderId(), create.customerId(), create.phone(), create.items(),
                new OrderFailure("inventory", "business", reason), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    private static OrderEvent event(OrderEventType type, String orderId, Object... skuAndQuantity) {
        List<OrderItem> items = new ArrayList<>();
        for (int i = 0; i < skuAndQuantity.length; i += 2) {
            items.add(new OrderItem((String) skuAndQuantity[i], (Integer) skuAndQuantity[i + 1], new BigDecimal("1.00")));
        }
        return OrderEvent.of(type, orderId, "C-1", "+819012345678", items, Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /** Committed units of {@code sku}. */
    static long available(String sku) {
        return CommittedState.number("select available from stock where sku = ?", sku);
    }

    static long movements(String orderId, String kind) {
        return CommittedState.number("select count(*) from stock_movement where order_id = ? and kind = ?", orderId, kind);
    }

    /** The committed outcome of {@code event} in inventory_group, or null when not consumed yet. */
    static String outcome(OrderEvent event) {
        List<Map<String, Object>> rows = CommittedState.rows("select outcome, outcome_reason from consume_record"
                + " where consumer_group = ? and message_key = ?", GROUP, event.messageKey());
        return rows.isEmpty() ? null : (String) rows.get(0).get("outcome");
    }

    static String outcomeReason(OrderEvent event) {
        return (String) CommittedState.rows("select outcome_reason from consume_record where consumer_group = ?"
                + " and message_key = ?", GROUP, event.messageKey()).get(0).get("outcome_reason");
    }

    static void awaitConsumed(OrderEvent event) {
        await().atMost(PROCESSED).until(() -> outcome(event) != null);
    }

    /** Reports on order_result_topic about {@code event} from the inventory consumer. */
    static List<ConsumerReport> reports(OrderEvent event) {
        return TopicProbe.of(ConsumerReports.TOPIC)
                .withKey(ConsumerReports.messageKey(event.orderId(), event.eventType(), ConsumerReports.INVENTORY))
                .stream().map(r -> ConsumerReportParser.parse(r.body())).toList();
    }

    /** Waits for the first report of {@code event}, then checks for a while that no second one comes. */
    static ConsumerReport awaitSingleReport(OrderEvent event) {
        await().atMost(PROCESSED).until(() -> !reports(event).isEmpty());
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> reports(event).size() == 1);
        return reports(event).get(0);
    }
}
