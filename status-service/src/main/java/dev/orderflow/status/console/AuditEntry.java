package dev.orderflow.status.console;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One console action (table {@code console_audit}): who did what, when, to which dead letter. */
@Entity
@Table(name = "console_audit")
public class AuditEntry {

    /** What was done. */
    public enum Action {
        REQUEST, APPROVE, REJECT, SEND
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "at", nullable = false)
    public Instant at;

    @Column(name = "actor", nullable = false, length = 64)
    public String actor;

    @Enumerated(EnumType.STRING)
    @Column(name = "action", nullable = false, length = 16)
    public Action action;

    @Column(name = "consumer", nullable = false, length = 32)
    public String consumer;

    @Column(name = "consumer_group", nullable = false, length = 128)
    public String consumerGroup;

    @Column(name = "request_id")
    public Long requestId;

    @Column(name = "dlq_message_id", length = 64)
    public String dlqMessageId;

    @Column(name = "message_key", length = 128)
    public String messageKey;

    @Column(name = "before_body", columnDefinition = "MEDIUMTEXT")
    public String beforeBody;

    @Column(name = "after_body", columnDefinition = "MEDIUMTEXT")
    public String afterBody;

    /** The request's status after the action. */
    @Enumerated(EnumType.STRING)
    @Column(name = "outcome", nullable = false, length = 16)
    public RedriveStatus outcome;

    @Column(name = "detail", length = 1024)
    public String detail;
}
