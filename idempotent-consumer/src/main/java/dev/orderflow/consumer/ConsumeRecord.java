package dev.orderflow.consumer;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;

/** A (consumer group, message key) whose effect committed. Table from {@code V1_0__consume_record.sql}. */
@Entity
@Table(name = "consume_record", uniqueConstraints = @UniqueConstraint(name = ConsumeRecord.UNIQUE_KEY_NAME,
        columnNames = { "consumer_group", "message_key" }))
public class ConsumeRecord {

    /** Name of the UNIQUE(consumer_group, message_key) constraint; a violation of it means "already processed". */
    public static final String UNIQUE_KEY_NAME = "uk_consume_record_group_key";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "consumer_group", nullable = false, length = 128)
    public String consumerGroup;

    @Column(name = "message_key", nullable = false, length = 255)
    public String messageKey;

    @Column(name = "msg_id", length = 128)
    public String msgId;

    @Enumerated(EnumType.STRING)
    @Column(name = "outcome", nullable = false, length = 16)
    public Outcome.Status outcome;

    @Column(name = "outcome_reason", length = 1024)
    public String outcomeReason;

    @Column(name = "processed_at", nullable = false)
    public Instant processedAt;
}
