package dev.orderflow.sms.intent;

/**
 * CDI event fired inside a transaction that made outbox rows due (a text recorded PENDING, or held
 * confirmations released). Observed after a successful commit to wake the dispatcher up, so the
 * texts go out without waiting for the sweep.
 *
 * @param count how many rows became due
 */
public record TextsDue(int count) {
}
