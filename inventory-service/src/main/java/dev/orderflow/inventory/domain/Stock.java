package dev.orderflow.inventory.domain;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** Units of one SKU available for new orders: a row of {@code stock}. */
@Entity
@Table(name = "stock")
public class Stock extends PanacheEntityBase {

    @Id
    public String sku;

    public long available;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** Adds {@code units} (negative to take) as of {@code at}. */
    public void add(long units, Instant at) {
        available += units;
        updatedAt = at;
    }
}
