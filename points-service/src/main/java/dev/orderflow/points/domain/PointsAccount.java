package dev.orderflow.points.domain;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A customer's points balance: a row of {@code points_account}, opened at 0 by the customer's first order. */
@Entity
@Table(name = "points_account")
public class PointsAccount extends PanacheEntityBase {

    @Id
    @Column(name = "customer_id")
    public String customerId;

    public long balance;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** Adds {@code points} (negative to take back) as of {@code at}. */
    public void add(long points, Instant at) {
        balance += points;
        updatedAt = at;
    }
}
