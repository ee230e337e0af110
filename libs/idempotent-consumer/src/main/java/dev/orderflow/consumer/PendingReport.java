package dev.orderflow.consumer;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A message waiting in the outbox ({@code consume_report}, from {@code V1_0_1__consume_report.sql})
 * to be sent by {@link ConsumeReportRelay}: a consumer's result report, or a message the
 * application put there ({@link ConsumeReporter#enqueue}: the fields then name its KEYS, tag and kind).
 */
@Entity
@Table(name = "consume_report")
public class PendingReport extends PanacheEntityBase {

    /** From {@code consume_report_seq} ({@code V1_0_3__consume_report_sequence.sql}), 64 at a time; set once the row is written. */
    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "consume_report_ids")
    @SequenceGenerator(name = "consume_report_ids", sequenceName = "consume_report_seq", allocationSize = 64)
    public Long id;

    /** The group whose consumption produced the report (for the operator). */
    @Column(name = "consumer_group")
    public String consumerGroup;

    /** The consumed message's business key. */
    @Column(name = "message_key")
    public String messageKey;

    /** KEYS of the message: for a report {@code <orderId>:<eventType>:<consumer>}. */
    @Column(name = "report_key")
    public String reportKey;

    /** Tag of the message: for a report the consumer's short name (at most 32 characters). */
    public String consumer;

    /** For the operator (the body carries it too): a report's DONE, REJECTED or DEAD_LETTERED (at most 16 characters). */
    public String outcome;

    /** The message body (a report's ConsumerReport JSON), sent as is; at most 4000 characters. */
    public String body;

    @Column(name = "created_at")
    public Instant createdAt;
}
