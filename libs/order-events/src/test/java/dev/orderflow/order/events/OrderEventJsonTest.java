package dev.orderflow.order.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class OrderEventJsonTest {

    private static final Instant AT = Instant.parse("2025-03-01T10:15:30.123Z");

    private static OrderEvent sample(OrderEventType type) {
        List<OrderItem> items = List.of(new OrderItem("SKU-1", 2, new BigDecimal("12.5")),
                new OrderItem("SKU-2", 1, new BigDecimal("0.99")));
        return type == OrderEventType.FAIL
                ? OrderEvent.failed("01JNQ3ZK6M1V9Q0F4X8T2B7C5D", "C-1", "+819012345678", items,
                        new OrderFailure("inventory", "business", "insufficient stock"), AT)
                : OrderEvent.of(type, "01JNQ3ZK6M1V9Q0F4X8T2B7C5D", "C-1", "+819012345678", items, AT);
    }

    @Test
    void writesMoneyAsTwoDecimalStringsAndTimeAsIsoInstant() {
        String json = OrderEventJson.toJson(sample(OrderEventType.CREATE));

        assertThat(json).isEqualTo("{\"schemaVersion\":1,\"eventType\":\"create\",\"orderId\":\"01JNQ3ZK6M1V9Q0F4X8T2B7C5D\","
                + "\"customerId\":\"C-1\",\"phone\":\"+819012345678\",\"items\":["
                + "{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":\"12.50\"},"
                + "{\"sku\":\"SKU-2\",\"quantity\":1,\"unitPrice\":\"0.99\"}],"
                + "\"amount\":\"25.99\",\"occurredAt\":\"2025-03-01T10:15:30.123Z\"}");
    }

    @Test
    void parserReadsWhatTheWriterWrote() {
        for (OrderEventType type : OrderEventType.values()) {
            OrderEvent event = sample(type);
            assertThat(OrderEventParser.parse(OrderEventJson.toJson(event))).isEqualTo(event);
        }
    }

    @Test
    void messageKeyIsOrderIdAndEventType() {
        assertThat(sample(OrderEventType.CREATE).messageKey()).isEqualTo("01JNQ3ZK6M1V9Q0F4X8T2B7C5D:create");
        assertThat(sample(OrderEventType.CANCEL).messageKey()).isEqualTo("01JNQ3ZK6M1V9Q0F4X8T2B7C5D:cancel");
        assertThat(OrderMessaging.parseMessageKey("O-1:cancel"))
                .isEqualTo(new OrderMessaging.MessageKey("O-1", OrderEventType.CANCEL));
        assertThat(OrderMessaging.parseMessageKey("O-1:refund")).isNull();
        assertThat(OrderMessaging.parseMessageKey("no-separator")).isNull();
        assertThatThrownBy(() -> OrderMessaging.messageKey("a b", OrderEventType.CREATE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void namesOnTheBroker() {
        assertThat(OrderMessaging.TOPIC).isEqualTo("order_topic");
        assertThat(OrderMessaging.TAG_CREATE).isEqualTo("create");
        assertThat(OrderMessaging.TAG_CANCEL).isEqualTo("cancel");
        assertThat(OrderMessaging.CONSUMER_GROUPS)
                .containsExactly("inventory_group", "sms_group", "points_group", "status_group");
        assertThat(OrderMessaging.deadLetterQueueOf(OrderMessaging.SMS_GROUP)).isEqualTo("%DLQ%sms_group");
    }

    @Test
    void moneyIsNeverRoundedSilently() {
        assertThatThrownBy(() -> new OrderItem("SKU-1", 1, new BigDecimal("1.005")))
                .isInstanceOf(ArithmeticException.class);
    }
}
