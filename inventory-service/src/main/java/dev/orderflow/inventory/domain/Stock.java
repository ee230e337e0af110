package dev.orderflow.inventory.domain;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** Units of one SKU available for new orders. */
@Entity
@Table(name = "stock")
public class Stock extends PanacheEntityBase {

    @Id
    @Column(name = "sku", length = 64)
    public String sku;

    @Column(name = "available", nullable = false)
    public long available;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
