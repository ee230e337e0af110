package dev.orderflow.points.domain;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A customer's points balance. */
@Entity
@Table(name = "points_account")
public class PointsAccount extends PanacheEntityBase {

    @Id
    @Column(name = "customer_id", length = 128)
    public String customerId;

    @Column(name = "balance", nullable = false)
    public long balance;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
