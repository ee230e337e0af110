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

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** One console action (table {@code console_audit}): who did what, when, to which dead letter. Never changed. */
@Entity
@Table(name = "console_audit")
public class AuditEntry extends PanacheEntityBase {

    /** What was done. */
    public enum Action {
        REQUEST, APPROVE, REJECT, SEND, ABANDON
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public Instant at;

    public String actor;

    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR)
    public Action action;

    public String consumer;

    @Column(name = "consumer_group")
    public String consumerGroup;

    @Column(name = "request_id")
    public Long requestId;

    @Column(name = "dlq_message_id")
    public String dlqMessageId;

    @Column(name = "message_key")
    public String messageKey;

    @Column(name = "before_body", columnDefinition = "mediumtext")
    public String beforeBody;

    @Column(name = "after_body", columnDefinition = "mediumtext")
    public String afterBody;

    /** The request's status after the action. */
    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR)
    public RedriveStatus outcome;

    public String detail;
}
