package dev.orderflow.order.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;

/** An order (table {@code orders}). */
@Entity
@Table(name = "orders")
public class Order extends PanacheEntityBase {

    /** Name of the UNIQUE constraint on {@code idempotency_key} (see V1__orders.sql). */
    public static final String IDEMPOTENCY_KEY_CONSTRAINT = "uk_orders_idempotency_key";

    @Id
    @Column(length = 26)
    public String id;

    @Column(name = "customer_id", nullable = false, length = 64)
    public String customerId;

    @Column(nullable = false, length = 32)
    public String phone;

    @Column(nullable = false, precision = 15, scale = 2)
    public BigDecimal amount;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    public OrderStatus status;

    @Column(name = "idempotency_key", length = 128, unique = true)
    public String idempotencyKey;

    @Column(name = "request_hash", length = 64)
    public String requestHash;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Version
    public int version;

    @OneToMany(mappedBy = "order", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("lineNo")
    public List<OrderLine> items = new ArrayList<>();

    public void addItem(OrderLine line) {
        line.order = this;
        line.lineNo = items.size() + 1;
        items.add(line);
    }

    public static Optional<Order> findByIdempotencyKey(String key) {
        return find("idempotencyKey", key).firstResultOptional();
    }

    /** The order with a row lock held until the transaction ends (serializes concurrent cancels). */
    public static Optional<Order> findByIdForUpdate(String id) {
        return Optional.ofNullable(findById(id, LockModeType.PESSIMISTIC_WRITE));
    }

    /** A page of a customer's orders, newest first. */
    public static List<Order> pageOfCustomer(String customerId, int page, int size) {
        return find("customerId", Sort.descending("createdAt").and("id", Sort.Direction.Descending), customerId)
                .page(Page.of(page, size)).list();
    }

    public static long countOfCustomer(String customerId) {
        return count("customerId", customerId);
    }
}
