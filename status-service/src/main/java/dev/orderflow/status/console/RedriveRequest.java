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

/**
 * A re-drive of one dead letter, or the abandon of its order (table {@code console_redrive_request}).
 * Only a decision or a send changes it after it was requested.
 */
@Entity
@Table(name = "console_redrive_request")
public class RedriveRequest extends PanacheEntityBase {

    /** What the request asks for. */
    public enum RequestAction {
        /** Send the dead letter to its group's retry topic. */
        REDRIVE,
        /** Give the order up: decide it FAILED and compensate it (never sends the dead letter). */
        ABANDON
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR)
    public RequestAction action = RequestAction.REDRIVE;

    public String consumer;

    @Column(name = "consumer_group")
    public String consumerGroup;

    @Column(name = "dlq_message_id")
    public String dlqMessageId;

    @Column(name = "message_key")
    public String messageKey;

    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR)
    public RedriveStatus status;

    @Column(name = "requested_by")
    public String requestedBy;

    @Column(name = "requested_at")
    public Instant requestedAt;

    public String comment;

    @Column(name = "original_body", columnDefinition = "mediumtext")
    public String originalBody;

    /** Null: the original body is sent. */
    @Column(name = "corrected_body", columnDefinition = "mediumtext")
    public String correctedBody;

    @Column(name = "decided_by")
    public String decidedBy;

    @Column(name = "decided_at")
    public Instant decidedAt;

    @Column(name = "sent_message_id")
    public String sentMessageId;

    @Column(name = "sent_at")
    public Instant sentAt;

    public String failure;

    /** The body that is (or was) sent. */
    public String bodyToSend() {
        return correctedBody != null ? correctedBody : originalBody;
    }
}
