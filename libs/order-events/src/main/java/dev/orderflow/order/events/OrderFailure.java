package dev.orderflow.order.events;

import java.util.Objects;
import java.util.Set;

/**
 * Why an order failed: the consumer that refused it, the failure class and its words. Carried by
 * the {@link OrderEventType#FAIL} event and the FAILED {@link OrderOutcome}.
 *
 * @param consumer     the consumer's short name ({@link ConsumerReports#INVENTORY}, ...)
 * @param failureClass {@code business}, or for an order an operator abandoned, the dead letter's
 *                     class ({@code format} or {@code system})
 * @param reason       the consumer's or the operator's text
 */
public record OrderFailure(String consumer, String failureClass, String reason) {

    /** The classes a failure may have. */
    public static final Set<String> CLASSES = ConsumerReport.FAILURE_CLASSES;

    /** Longest reason kept; longer ones are cut (texts and columns hold a bounded reason). */
    public static final int MAX_REASON_LENGTH = 512;

    public OrderFailure {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(failureClass, "failureClass");
        Objects.requireNonNull(reason, "reason");
        if (!ConsumerReports.isValidConsumerName(consumer)) {
            throw new IllegalArgumentException("consumer must be a short consumer name, was '" + consumer + "'");
        }
        if (!CLASSES.contains(failureClass)) {
            throw new IllegalArgumentException("failureClass must be one of " + CLASSES + ", was '" + failureClass + "'");
        }
        if (reason.isBlank()) {
            throw new IllegalArgumentException("reason must not be blank");
        }
        if (reason.length() > MAX_REASON_LENGTH) {
            reason = reason.substring(0, MAX_REASON_LENGTH);
        }
    }
}
