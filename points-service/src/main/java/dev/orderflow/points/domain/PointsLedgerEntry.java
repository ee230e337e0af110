package dev.orderflow.points.domain;

import java.time.Instant;
import java.util.Optional;

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

/** One change of a balance, caused by one order event. */
@Entity
@Table(name = "points_ledger", uniqueConstraints = @UniqueConstraint(name = "uk_points_ledger_order_reason",
        columnNames = { "order_id", "reason" }))
public class PointsLedgerEntry extends PanacheEntityBase {

    public enum Reason {
        /** Points credited for an order's create. */
        ORDER_CREDIT,
        /** The same points taken back for the order's cancel. */
        ORDER_REVERSAL
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "order_id", nullable = false, length = 128)
    public String orderId;

    @Column(name = "customer_id", nullable = false, length = 128)
    public String customerId;

    @Enumerated(EnumType.STRING)
    @Column(name = "reason", nullable = false, length = 32)
    public Reason reason;

    /** Signed: positive for a credit, the negated credit for its reversal. */
    @Column(name = "points", nullable = false)
    public long points;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /**
     * The order's entry for {@code reason}, read with a lock so it sees the latest commit even from a
     * transaction whose snapshot predates it (see CancelBeforeCreateGuard).
     */
    public static Optional<PointsLedgerEntry> of(String orderId, Reason reason) {
        return PointsLedgerEntry.<PointsLedgerEntry> find("orderId = ?1 and reason = ?2", orderId, reason)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .firstResultOptional();
    }
}
