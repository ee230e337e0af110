package dev.orderflow.ledger;

/**
 * One effect a consumer wrote for an order, in the terms of {@code OwedEffects}:
 * <ul>
 * <li>inventory: kind DEDUCT or RESTORE, subject the SKU, amount the units, state null;</li>
 * <li>points: kind the ledger reason (ORDER_CREDIT, ORDER_REVERSAL, ORDER_FAILURE_REVERSAL), subject
 * "", amount the points (negative for a reversal), state null;</li>
 * <li>sms: kind the text's event (CREATE, CANCEL, FAIL), subject "", amount 1, state the text's
 * status (PENDING, SENT, FAILED, ...).</li>
 * </ul>
 */
public record RecordedEffect(String orderId, String kind, String subject, long amount, String state) {
}
