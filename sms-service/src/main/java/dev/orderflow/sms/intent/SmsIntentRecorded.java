package dev.orderflow.sms.intent;

/**
 * CDI event fired inside the consume transaction when an outbox row was written. Observed after
 * a successful commit to wake the dispatcher up, so a text goes out without waiting for the sweep.
 *
 * @param businessKey the row's business key
 */
public record SmsIntentRecorded(String businessKey) {
}
