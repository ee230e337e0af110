package dev.orderflow.order.events;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The order event every consumer reads (body of messages on {@link OrderMessaging#TOPIC}).
 * Both event types carry the full order snapshot, so a consumer never needs to call back.
 *
 * <p>Schema evolution: adding a field keeps {@link #CURRENT_SCHEMA_VERSION} (consumers ignore
 * fields they do not know); removing or changing the meaning of a field raises it, and
 * consumers are upgraded before the producer ({@link OrderEventParser} rejects newer versions).
 *
 * @param schemaVersion version of this layout, {@link #CURRENT_SCHEMA_VERSION} when produced
 * @param eventType     create, cancel or fail
 * @param orderId       the order id (string, unique, time-ordered)
 * @param customerId    the customer
 * @param phone         phone number for notifications
 * @param items         order lines, at least one
 * @param amount        sum of the line totals, scale 2, serialized as a string ({@code "25.00"})
 * @param occurredAt    when the event happened at the producer (ISO-8601, millisecond precision)
 * @param failure       why the order failed: present on {@link OrderEventType#FAIL} events only
 *                      (a field added in schema version 1: readers that do not know it ignore it)
 */
@JsonPropertyOrder({ "schemaVersion", "eventType", "orderId", "customerId", "phone", "items", "amount", "occurredAt",
        "failure" })
public record OrderEvent(
        int schemaVersion,
        OrderEventType eventType,
        String orderId,
        String customerId,
        String phone,
        List<OrderItem> items,
        @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal amount,
        Instant occurredAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) OrderFailure failure) {

    public static final int CURRENT_SCHEMA_VERSION = 1;

    public OrderEvent {
        items = items == null ? List.of() : List.copyOf(items);
        amount = Money.scale2(amount);
        if ((eventType == OrderEventType.FAIL) != (failure != null)) {
            throw new IllegalArgumentException("a fail event carries a failure, and only a fail event does");
        }
    }

    /** A create or cancel event (no failure). */
    public OrderEvent(int schemaVersion, OrderEventType eventType, String orderId, String customerId, String phone,
            List<OrderItem> items, BigDecimal amount, Instant occurredAt) {
        this(schemaVersion, eventType, orderId, customerId, phone, items, amount, occurredAt, null);
    }

    /** A create or cancel event for an order, in the current schema version, amount computed from the items. */
    public static OrderEvent of(OrderEventType eventType, String orderId, String customerId, String phone,
            List<OrderItem> items, Instant occurredAt) {
        return new OrderEvent(CURRENT_SCHEMA_VERSION, eventType, orderId, customerId, phone, items,
                Money.total(items), occurredAt);
    }

    /** The fail event of an order, with the order's snapshot and why it failed. */
    public static OrderEvent failed(String orderId, String customerId, String phone, List<OrderItem> items,
            OrderFailure failure, Instant occurredAt) {
        return new OrderEvent(CURRENT_SCHEMA_VERSION, OrderEventType.FAIL, orderId, customerId, phone, items,
                Money.total(items), occurredAt, failure);
    }

    /** The stable business key ({@code <orderId>:<eventType>}) set as message KEYS and deduped on. */
    @JsonIgnore
    public String messageKey() {
        return OrderMessaging.messageKey(orderId, eventType);
    }

    /** The message tag for this event. */
    @JsonIgnore
    public String tag() {
        return eventType.tag();
    }
}
