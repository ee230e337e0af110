package dev.orderflow.status.domain;

/**
 * Why an order failed.
 *
 * @param consumer     the consumer that rejected or dead-lettered the event
 * @param failureClass {@code format}, {@code business} or {@code system} for a dead letter;
 *                     {@code business} for a rejection (a business "no", e.g. insufficient stock)
 * @param reason       the consumer's reason
 */
public record Failure(String consumer, String failureClass, String reason) {

    /** Failure class shown for a REJECTED outcome, which carries none of its own. */
    public static final String REJECTED_CLASS = "business";
}
