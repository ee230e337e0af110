package dev.orderflow.inventory.domain;

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
 * One line of the ledger ({@code stock_movement}): what an order deducted from or restored to one
 * SKU. Identified by order, SKU and kind (the table's unique key); the table's auto-increment
 * {@code id} is left unmapped, so that Hibernate sends a batch's movements as one JDBC batch.
 */
@Entity
@Table(name = "stock_movement")
@IdClass(StockMovement.Key.class)
public class StockMovement extends PanacheEntityBase {

    public enum Kind {
        /** Units taken by the order's create. */
        DEDUCT,
        /** Units given back by the order's cancel: exactly the DEDUCT quantity. */
        RESTORE
    }

    @Id
    @Column(name = "order_id")
    public String orderId;

    @Id
    public String sku;

    @Id
    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR) // the column is a VARCHAR, not the MariaDB ENUM Hibernate would expect
    public Kind kind;

    public long quantity;

    @Column(name = "created_at")
    public Instant createdAt;

    /** The identifier: an order has at most one movement per SKU and kind. */
    public static class Key implements Serializable {
        public String orderId;
        public String sku;
        public Kind kind;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(orderId, key.orderId) && Objects.equals(sku, key.sku)
                    && kind == key.kind;
        }

        @Override
        public int hashCode() {
            return Objects.hash(orderId, sku, kind);
        }
    }
}
