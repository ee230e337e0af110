package dev.orderflow.order.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.orderflow.order.events.OrderFailure;

/** An order (a row of {@code orders}) and its lines; read and written by {@link OrderRows}. */
public class Order {

    /** Name of the UNIQUE constraint on {@code idempotency_key} (see V1__orders.sql). */
    public static final String IDEMPOTENCY_KEY_CONSTRAINT = "uk_orders_idempotency_key";

    /** A ULID (26 characters). */
    public String id;

    public String customerId;

    public String phone;

    public BigDecimal amount;

    public OrderStatus status;

    /** The client's Idempotency-Key, or null. */
    public String idempotencyKey;

    /** Fingerprint of the request that came with {@link #idempotencyKey}, or null. */
    public String requestHash;

    public Instant createdAt;

    public Instant updatedAt;

    /** Incremented by every update of the row. */
    public int version;

    /** When the order reached COMPLETED, FAILED or CANCELLED (every reversal done); null until then. */
    public Instant outcomeAt;

    /** Why a FAILED order failed; null otherwise. */
    public OrderFailure failure;

    /** In line order. */
    public List<OrderLine> items = new ArrayList<>();

    /** Appends the line, numbering it after the last one. */
    public void addItem(OrderLine line) {
        line.lineNo = items.size() + 1;
        items.add(line);
    }
}
