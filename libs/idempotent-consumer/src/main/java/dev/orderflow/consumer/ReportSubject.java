package dev.orderflow.consumer;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;

/**
 * Which order event a result report is about. The pipeline derives it from the business key it
 * dedupes on, so the handler supplies it through its key function ({@code OrderEvent::messageKey}
 * → {@code <orderId>:<eventType>}) and nothing else: the same subject is then available on the
 * dead-letter path, where no payload was parsed and the key is the message's KEYS.
 *
 * @param orderId   the order
 * @param eventType create or cancel
 */
public record ReportSubject(String orderId, OrderEventType eventType) {

    /** The subject named by an order event key ({@code <orderId>:<create|cancel>}), or null when it is no such key. */
    public static ReportSubject ofMessageKey(String messageKey) {
        OrderMessaging.MessageKey key = OrderMessaging.parseMessageKey(messageKey);
        if (key == null || key.orderId().isBlank() || key.orderId().indexOf(':') >= 0 || key.orderId().indexOf(' ') >= 0) {
            return null;
        }
        return new ReportSubject(key.orderId(), key.eventType());
    }
}
