package dev.orderflow.points.domain;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * One change of a balance, caused by one order event: a row of {@code points_ledger}. Identified
 * by its order and reason (the table's unique key); the table's own auto-increment {@code id} is
 * left unmapped, so that Hibernate knows every identifier before the INSERT and sends a batch's
 * entries as one JDBC batch (a table-generated identifier would make it one round trip each).
 */
@Entity
@Table(name = "points_ledger")
@IdClass(PointsLedgerEntry.Key.class)
public class PointsLedgerEntry extends PanacheEntityBase {

    public enum Reason {
        /** Points credited for an order's create. */
        ORDER_CREDIT,
        /** The same points taken back for the order's cancel. */
        ORDER_REVERSAL,
        /** The same points taken back because the order failed (its {@link #note} says why). */
        ORDER_FAILURE_REVERSAL
    }

    @Id
    @Column(name = "order_id")
    public String orderId;

    @Id
    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR) // the column is a VARCHAR, not the MariaDB ENUM Hibernate would expect
    public Reason reason;

    @Column(name = "customer_id")
    public String customerId;

    /** Signed: positive for a credit, the negated credit for its reversal. */
    public long points;

    @Column(name = "created_at")
    public Instant createdAt;

    /** Why, beyond the reason; for {@link Reason#ORDER_FAILURE_REVERSAL} the order's failure. Null otherwise. */
    public String note;

    /** The identifier: an order has at most one entry per reason. */
    public static class Key implements Serializable {
        public String orderId;
        public Reason reason;

        public Key() {
        }

        public Key(String orderId, Reason reason) {
            this.orderId = orderId;
            this.reason = reason;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(orderId, key.orderId) && reason == key.reason;
        }

        @Override
        public int hashCode() {
            return Objects.hash(orderId, reason);
        }
    }
}
