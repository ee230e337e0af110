package dev.orderflow.status.reconciliation;

/**
 * One disagreement between an order and a consumer's effect.
 *
 * @param kind     what is wrong
 * @param consumer {@code inventory}, {@code points} or {@code sms}
 * @param orderId  the order (for an effect without order: the order id the effect names)
 * @param detail   what was expected and what was found
 */
public record Finding(FindingKind kind, String consumer, String orderId, String detail) {
}
