package dev.orderflow.sms.rest;

import java.time.Instant;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.sms.outbox.SmsOutboxEntry;
import dev.orderflow.sms.outbox.SmsStatus;

/**
 * One text of an order as {@code GET /sms} shows it.
 *
 * @param orderId   the order
 * @param eventType {@code create} (confirmation) or {@code cancel} (cancellation notice)
 * @param phone     the recipient
 * @param text      the message
 * @param status    PENDING, SENT or FAILED
 * @param attempts  send attempts so far
 * @param sentAt    when the gateway accepted it (ISO-8601, ms); null unless SENT
 */
public record SmsView(String orderId, OrderEventType eventType, String phone, String text, SmsStatus status,
        int attempts, Instant sentAt) {

    static SmsView of(SmsOutboxEntry entry) {
        return new SmsView(entry.orderId, entry.eventType, entry.phone, entry.text, entry.status, entry.attempts,
                entry.sentAt);
    }
}
