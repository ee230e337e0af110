package dev.orderflow.reference.points;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "points")
public class PointsBalance {

    @Id
    @Column(name = "customer_id")
    private String customerId;

    @Column(nullable = false)
    private long balance;

    protected PointsBalance() {
    }

    public String getCustomerId() {
        return customerId;
    }

    public long getBalance() {
        return balance;
    }
}
