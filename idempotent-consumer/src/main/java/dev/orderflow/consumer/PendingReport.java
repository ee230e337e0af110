package dev.orderflow.consumer;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A result report waiting in the outbox ({@code consume_report}, from
 * {@code V1_0_1__consume_report.sql}) to be sent by {@link ConsumeReportRelay}.
 */
@Entity
@Table(name = "consume_report")
public class PendingReport {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** The group whose consumption produced the report (for the operator). */
    @Column(name = "consumer_group", nullable = false, length = 128)
    public String consumerGroup;

    /** The consumed message's business key. */
    @Column(name = "message_key", nullable = false, length = 255)
    public String messageKey;

    /** KEYS of the report message: {@code <orderId>:<eventType>:<consumer>}. */
    @Column(name = "report_key", nullable = false, length = 255)
    public String reportKey;

    /** The consumer's short name: tag of the report message. */
    @Column(name = "consumer", nullable = false, length = 32)
    public String consumer;

    /** DONE, REJECTED or DEAD_LETTERED (for the operator; the body carries it too). */
    @Column(name = "outcome", nullable = false, length = 16)
    public String outcome;

    /** The ConsumerReport JSON, sent as is. */
    @Column(name = "body", nullable = false, length = 4000)
    public String body;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
