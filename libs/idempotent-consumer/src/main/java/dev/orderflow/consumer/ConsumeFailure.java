package dev.orderflow.consumer;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * One failed delivery attempt (table {@code consume_failure}, see {@code V1_0__consume_record.sql}),
 * kept for the operator, who looks them up by {@code (consumer_group, message_key)}. Written by
 * {@link ConsumeFailureRecorder}; rows older than the retention are purged.
 */
@Entity
@Table(name = "consume_failure")
public class ConsumeFailure extends PanacheEntityBase {

    /** Longest reason the column holds; longer ones are cut. */
    public static final int MAX_REASON_LENGTH = 1024;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "consumer_group")
    public String consumerGroup;

    /** The business key, or the message's KEYS when the body could not be parsed; may be null. */
    @Column(name = "message_key")
    public String messageKey;

    @Column(name = "msg_id")
    public String msgId;

    /** {@link FailureClass#label()}. */
    @Column(name = "failure_class")
    public String failureClass;

    public boolean permanent;

    public String reason;

    /** Delivery attempt, starting at 1. */
    public int attempt;

    @Column(name = "failed_at")
    public Instant failedAt;
}
