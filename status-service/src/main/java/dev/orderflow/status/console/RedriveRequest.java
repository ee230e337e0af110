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

/** A re-drive of one dead letter (table {@code console_redrive_request}). */
@Entity
@Table(name = "console_redrive_request")
public class RedriveRequest {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "consumer", nullable = false, length = 32)
    public String consumer;

    @Column(name = "consumer_group", nullable = false, length = 128)
    public String consumerGroup;

    @Column(name = "dlq_message_id", nullable = false, length = 64)
    public String dlqMessageId;

    @Column(name = "message_key", length = 128)
    public String messageKey;

    @Enumerated(EnumType.STRING)
    @Column(name = "status", nullable = false, length = 16)
    public RedriveStatus status;

    @Column(name = "requested_by", nullable = false, length = 64)
    public String requestedBy;

    @Column(name = "requested_at", nullable = false)
    public Instant requestedAt;

    @Column(name = "comment", length = 1024)
    public String comment;

    @Column(name = "original_body", nullable = false, columnDefinition = "MEDIUMTEXT")
    public String originalBody;

    /** Null: the original body is sent. */
    @Column(name = "corrected_body", columnDefinition = "MEDIUMTEXT")
    public String correctedBody;

    @Column(name = "decided_by", length = 64)
    public String decidedBy;

    @Column(name = "decided_at")
    public Instant decidedAt;

    @Column(name = "sent_message_id", length = 64)
    public String sentMessageId;

    @Column(name = "sent_at")
    public Instant sentAt;

    @Column(name = "failure", length = 1024)
    public String failure;

    /** The body that is (or was) sent. */
    public String bodyToSend() {
        return correctedBody != null ? correctedBody : originalBody;
    }
}
