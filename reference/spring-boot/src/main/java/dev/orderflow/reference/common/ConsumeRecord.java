package dev.orderflow.reference.common;

import java.time.LocalDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One consumed message per consumer group and order: the consumers' dedupe (unique key in schema.sql). */
@Entity
@Table(name = "consume_record")
public class ConsumeRecord {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "consumer_group", nullable = false)
    private String consumerGroup;

    @Column(name = "order_id", nullable = false)
    private String orderId;

    @Column(name = "consumed_at", nullable = false)
    private LocalDateTime consumedAt;

    protected ConsumeRecord() {
    }

    public ConsumeRecord(String consumerGroup, String orderId) {
        this.consumerGroup = consumerGroup;
        this.orderId = orderId;
        this.consumedAt = LocalDateTime.now();
    }

    public Long getId() {
        return id;
    }

    public String getConsumerGroup() {
        return consumerGroup;
    }

    public String getOrderId() {
        return orderId;
    }
}
