package dev.orderflow.order.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import org.hibernate.annotations.BatchSize;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.ListIndexBase;
import org.hibernate.type.SqlTypes;

import dev.orderflow.order.events.OrderFailure;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** An order (a row of {@code orders}) and its lines (rows of {@code order_items}). */
@Entity
@Table(name = "orders")
public class Order extends PanacheEntityBase {

    /** Name of the UNIQUE constraint on {@code idempotency_key} (see V1__orders.sql). */
    public static final String IDEMPOTENCY_KEY_CONSTRAINT = "uk_orders_idempotency_key";

    /** A ULID (26 characters). */
    @Id
    public String id;

    @Column(name = "customer_id")
    public String customerId;

    public String phone;

    public BigDecimal amount;

    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR) // the column is a VARCHAR, not the MariaDB ENUM Hibernate would expect
    public OrderStatus status;

    /** The client's Idempotency-Key, or null. */
    @Column(name = "idempotency_key")
    public String idempotencyKey;

    /** Fingerprint of the request that came with {@link #idempotencyKey}, or null. */
    @Column(name = "request_hash", columnDefinition = "char(64)")
    public String requestHash;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** Incremented by every update of the row. */
    @Version
    public int version;

    /** When the order reached COMPLETED, FAILED or CANCELLED (every reversal done); null until then. */
    @Column(name = "outcome_at")
    public Instant outcomeAt;

    /** Why a FAILED order failed (with {@link #failureClass} and {@link #failureReason}); null otherwise. */
    @Column(name = "failure_consumer")
    public String failureConsumer;

    @Column(name = "failure_class")
    public String failureClass;

    @Column(name = "failure_reason")
    public String failureReason;

    /**
     * In line order; {@code line_no} counts from 1. A page of orders loads the lines of up to 100
     * orders with one query.
     */
    @ElementCollection
    @CollectionTable(name = "order_items", joinColumns = @JoinColumn(name = "order_id"))
    @OrderColumn(name = "line_no")
    @ListIndexBase(1)
    @BatchSize(size = 100)
    public List<OrderLine> items = new ArrayList<>();

    public void addItem(OrderLine line) {
        items.add(line);
    }

    /** Why the order failed, or null. */
    public OrderFailure failure() {
        return failureConsumer == null ? null : new OrderFailure(failureConsumer, failureClass, failureReason);
    }

    public void fail(OrderFailure failure) {
        status = OrderStatus.FAILED;
        failureConsumer = failure.consumer();
        failureClass = failure.failureClass();
        failureReason = failure.reason();
    }

    /**
     * A new, unsaved order with this one's values and lines: what a second attempt to insert it
     * persists, since a rolled-back attempt leaves the persisted instance bound to its session.
     */
    public Order copy() {
        Order copy = new Order();
        copy.id = id;
        copy.customerId = customerId;
        copy.phone = phone;
        copy.amount = amount;
        copy.status = status;
        copy.idempotencyKey = idempotencyKey;
        copy.requestHash = requestHash;
        copy.createdAt = createdAt;
        copy.updatedAt = updatedAt;
        copy.version = version;
        copy.outcomeAt = outcomeAt;
        copy.failureConsumer = failureConsumer;
        copy.failureClass = failureClass;
        copy.failureReason = failureReason;
        items.forEach(line -> copy.items.add(new OrderLine(line.sku, line.quantity, line.unitPrice)));
        return copy;
    }
}
