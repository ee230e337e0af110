package dev.orderflow.consumer;

/**
 * CDI event fired synchronously, inside the transaction that writes the consume_failure row, for
 * every failed attempt. Observe it to report failures (e.g. a DEAD_LETTERED status for permanent
 * ones) atomically with the failure record: an observer that throws rolls the record back too.
 *
 * @param consumerGroup the group
 * @param messageKey    the business key, or the message's KEYS when the body could not be parsed
 *                      (may be null)
 * @param msgId         the broker's message id
 * @param failureClass  format, business or system
 * @param reason        what went wrong
 * @param attempt       delivery attempt, starting at 1
 */
public record ConsumeFailed(String consumerGroup, String messageKey, String msgId, FailureClass failureClass,
        String reason, int attempt) {

    /** True when the message goes to the dead-letter queue after this attempt regardless of retries left. */
    public boolean permanent() {
        return failureClass.permanent();
    }
}
