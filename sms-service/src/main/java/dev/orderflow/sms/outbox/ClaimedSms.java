package dev.orderflow.sms.outbox;

/**
 * An outbox row claimed by this instance for one send attempt.
 *
 * @param id          the row
 * @param claimToken  proves the claim when the result is recorded
 * @param businessKey the Idempotency-Key of the attempt
 * @param phone       the recipient
 * @param text        the message
 * @param attempt     this attempt's number, starting at 1
 */
public record ClaimedSms(long id, String claimToken, String businessKey, String phone, String text, int attempt) {
}
