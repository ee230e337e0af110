package dev.orderflow.consumer;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One failed delivery attempt: what failed and why, for the operator. Table from
 * {@code V1_0__consume_record.sql}. Query it by {@code (consumer_group, message_key)}.
 */
@Entity
@Table(name = "consume_failure")
public class ConsumeFailure {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "consumer_group", nullable = false, length = 128)
    public String consumerGroup;

    @Column(name = "message_key", length = 255)
    public String messageKey;

    @Column(name = "msg_id", length = 128)
    public String msgId;

    /** {@link FailureClass#label()}. */
    @Column(name = "failure_class", nullable = false, length = 16)
    public String failureClass;

    @Column(name = "permanent", nullable = false)
    public boolean permanent;

    @Column(name = "reason", nullable = false, length = 1024)
    public String reason;

    @Column(name = "attempt", nullable = false)
    public int attempt;

    @Column(name = "failed_at", nullable = false)
    public Instant failedAt;
}
