package dev.orderflow.reference.common;

import java.time.LocalDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The shared flags row of an order: each consumer sets its own flag; the last one sets completed_at. */
@Entity
@Table(name = "order_flags")
public class OrderFlags {

    @Id
    @Column(name = "order_id")
    private String orderId;

    @Column(name = "inventory_done", nullable = false)
    private boolean inventoryDone;

    @Column(name = "sms_done", nullable = false)
    private boolean smsDone;

    @Column(name = "points_done", nullable = false)
    private boolean pointsDone;

    @Column(name = "completed_at")
    private LocalDateTime completedAt;

    protected OrderFlags() {
    }

    public OrderFlags(String orderId) {
        this.orderId = orderId;
    }

    public String getOrderId() {
        return orderId;
    }

    public boolean isInventoryDone() {
        return inventoryDone;
    }

    public boolean isSmsDone() {
        return smsDone;
    }

    public boolean isPointsDone() {
        return pointsDone;
    }

    public LocalDateTime getCompletedAt() {
        return completedAt;
    }
}
