package dev.orderflow.inventory.domain;

import java.time.Instant;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** One line of the ledger: what an order deducted from or restored to one SKU. */
@Entity
@Table(name = "stock_movement", uniqueConstraints = @UniqueConstraint(name = "uk_stock_movement_order_sku_kind",
        columnNames = { "order_id", "sku", "kind" }))
public class StockMovement extends PanacheEntityBase {

    public enum Kind {
        /** Units taken by the order's create. */
        DEDUCT,
        /** Units given back by the order's cancel: exactly the DEDUCT quantity. */
        RESTORE
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "order_id", nullable = false, length = 128)
    public String orderId;

    @Column(name = "sku", nullable = false, length = 64)
    public String sku;

    @Enumerated(EnumType.STRING)
    @Column(name = "kind", nullable = false, length = 16)
    public Kind kind;

    @Column(name = "quantity", nullable = false)
    public long quantity;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /**
     * The order's movements of one kind, read with a lock: a locking read sees the latest committed
     * rows, also when this transaction's snapshot predates the commit of the order's create (a
     * create and cancel consumed at the same time, serialized by CancelBeforeCreateGuard).
     */
    public static List<StockMovement> ofOrder(String orderId, Kind kind) {
        return StockMovement.<StockMovement> find("orderId = ?1 and kind = ?2 order by sku", orderId, kind)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list();
    }
}
