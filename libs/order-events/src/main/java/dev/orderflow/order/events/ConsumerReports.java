package dev.orderflow.order.events;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Broker names of the consumer result reports ({@link ConsumerReport}) that inventory, sms and
 * points send to the status service.
 *
 * <p>A report message is sent to {@link #TOPIC} with tag = the consumer's short name and KEYS =
 * {@link #messageKey(String, OrderEventType, String)}. Delivery is at-least-once (an outbox relay
 * may send a report twice after a crash), so the status service applies reports idempotently,
 * keyed by that message key.
 */
public final class ConsumerReports {

    /** The topic carrying {@link ConsumerReport}s. */
    public static final String TOPIC = "order_result_topic";

    /** Short consumer names: the report's {@code consumer} field and its tag. */
    public static final String INVENTORY = "inventory";
    public static final String SMS = "sms";
    public static final String POINTS = "points";

    /** The consumers the status service waits for by default. */
    public static final List<String> CONSUMERS = List.of(INVENTORY, SMS, POINTS);

    /** Lower-case letters, digits and '-', starting with a letter: safe as a tag and inside a key. */
    private static final Pattern CONSUMER_NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");

    private ConsumerReports() {
    }

    /** True when {@code consumer} can be used as a consumer name (tag and key part). */
    public static boolean isValidConsumerName(String consumer) {
        return consumer != null && CONSUMER_NAME.matcher(consumer).matches();
    }

    /**
     * The KEYS of a report, {@code <orderId>:<eventType>:<consumer>}: one business outcome of one
     * consumer always has the same key, however often it is sent.
     */
    public static String messageKey(String orderId, OrderEventType eventType, String consumer) {
        if (!isValidConsumerName(consumer)) {
            throw new IllegalArgumentException("consumer must match " + CONSUMER_NAME.pattern() + ": " + consumer);
        }
        return OrderMessaging.messageKey(orderId, eventType) + ':' + consumer;
    }
}
