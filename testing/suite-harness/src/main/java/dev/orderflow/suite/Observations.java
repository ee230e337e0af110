package dev.orderflow.suite;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the services' databases and the dead-letter queues hold at one moment, read by
 * {@link Reconciler} and judged by {@link Verdict#of}.
 *
 * @param orders         order-service {@code orders} + {@code order_items}, by order id
 * @param stockMovements inventory-service {@code stock_movement}
 * @param stock          inventory-service {@code stock.available} by SKU
 * @param ledger         points-service {@code points_ledger}
 * @param balances       points-service {@code points_account.balance} by customer
 * @param texts          sms-service {@code sms_outbox}
 * @param states         status-service {@code order_message_consume_status.state} by order id
 * @param deadLetters    entries of {@code %DLQ%<group>} of the consumer groups
 * @param rejectedCreates per consumer group, the orders whose create it rejected (insufficient
 *                       stock, or their cancel or fail came first): it applied nothing of them
 */
public record Observations(
        Map<String, OrderRow> orders,
        List<StockMovement> stockMovements,
        Map<String, Long> stock,
        List<LedgerEntry> ledger,
        Map<String, Long> balances,
        List<Text> texts,
        Map<String, String> states,
        List<DeadLetterEntry> deadLetters,
        Map<String, Set<String>> rejectedCreates) {

    /** Whether {@code group} rejected the order's create. */
    public boolean createRejected(String group, String orderId) {
        return rejectedCreates.getOrDefault(group, Set.of()).contains(orderId);
    }

    /**
     * @param status     order-service's status: CREATED, COMPLETED, FAILED or CANCELLED
     * @param quantities quantity per SKU, summed over the order's lines
     */
    public record OrderRow(String orderId, String customerId, BigDecimal amount, String status,
            Map<String, Long> quantities) {

        public boolean cancelled() {
            return "CANCELLED".equals(status);
        }

        public boolean failed() {
            return "FAILED".equals(status);
        }
    }

    /** @param kind DEDUCT or RESTORE */
    public record StockMovement(String orderId, String sku, String kind, long quantity) {
    }

    /** @param reason ORDER_CREDIT, ORDER_REVERSAL or ORDER_FAILURE_REVERSAL */
    public record LedgerEntry(String orderId, String customerId, String reason, long points) {
    }

    /**
     * @param eventType create, cancel or fail
     * @param status    HELD, WITHDRAWN, PENDING, SENT or FAILED
     */
    public record Text(String orderId, String eventType, String status) {
    }

    /** @param attempts the {@code DLQ_ATTEMPTS} property, 0 when missing */
    public record DeadLetterEntry(String group, String key, String failureClass, int attempts) {
    }
}
