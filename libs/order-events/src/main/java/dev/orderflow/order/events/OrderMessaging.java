package dev.orderflow.order.events;

import java.util.List;

/** Names on the broker that producer and consumers must agree on. */
public final class OrderMessaging {

    /** The topic carrying {@link OrderEvent}s. */
    public static final String TOPIC = "order_topic";

    /** Tag of {@link OrderEventType#CREATE} messages. */
    public static final String TAG_CREATE = OrderEventType.CREATE.tag();
    /** Tag of {@link OrderEventType#CANCEL} messages. */
    public static final String TAG_CANCEL = OrderEventType.CANCEL.tag();
    /** Tag of {@link OrderEventType#FAIL} messages. */
    public static final String TAG_FAIL = OrderEventType.FAIL.tag();
    /** Subscription expression matching every tag. */
    public static final String TAGS_ALL = TAG_CREATE + " || " + TAG_CANCEL + " || " + TAG_FAIL;

    public static final String INVENTORY_GROUP = "inventory_group";
    public static final String SMS_GROUP = "sms_group";
    public static final String POINTS_GROUP = "points_group";
    public static final String STATUS_GROUP = "status_group";

    /** Every consumer group of {@link #TOPIC}. */
    public static final List<String> CONSUMER_GROUPS = List.of(INVENTORY_GROUP, SMS_GROUP, POINTS_GROUP, STATUS_GROUP);

    private static final char KEY_SEPARATOR = ':';

    private OrderMessaging() {
    }

    /** The dead-letter queue RocketMQ keeps for a consumer group: {@code %DLQ%<group>}. */
    public static String deadLetterQueueOf(String consumerGroup) {
        return "%DLQ%" + consumerGroup;
    }

    /**
     * The stable business key of an order event, {@code <orderId>:<eventType>}: the same business
     * event always has the same key (unlike the message id), so every consumer dedupes on it.
     */
    public static String messageKey(String orderId, OrderEventType eventType) {
        if (orderId == null || orderId.isBlank() || orderId.indexOf(KEY_SEPARATOR) >= 0 || orderId.indexOf(' ') >= 0) {
            // RocketMQ splits KEYS on spaces and we split on ':' in parseMessageKey.
            throw new IllegalArgumentException("orderId must be non-blank without ':' or spaces: " + orderId);
        }
        return orderId + KEY_SEPARATOR + eventType.tag();
    }

    /** The order id and event type in a key made by {@link #messageKey}, or null when it is not such a key. */
    public static MessageKey parseMessageKey(String key) {
        if (key == null) {
            return null;
        }
        int separator = key.lastIndexOf(KEY_SEPARATOR);
        if (separator <= 0) {
            return null;
        }
        OrderEventType type = OrderEventType.fromTag(key.substring(separator + 1));
        return type == null ? null : new MessageKey(key.substring(0, separator), type);
    }

    /** The parts of a message key. */
    public record MessageKey(String orderId, OrderEventType eventType) {
    }
}
