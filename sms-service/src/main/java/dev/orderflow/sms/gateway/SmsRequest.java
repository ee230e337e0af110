package dev.orderflow.sms.gateway;

/**
 * One text to send.
 *
 * @param idempotencyKey the outbox row's business key, identical on every attempt
 * @param phone          the recipient
 * @param text           the message
 */
public record SmsRequest(String idempotencyKey, String phone, String text) {
}
