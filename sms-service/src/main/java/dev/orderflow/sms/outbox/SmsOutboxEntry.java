package dev.orderflow.sms.outbox;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.orderflow.order.events.OrderEventType;

/** One text to send (table {@code sms_outbox}, see {@code V1_1__sms_outbox.sql}). */
@Entity
@Table(name = "sms_outbox")
public class SmsOutboxEntry {

    /** Column limits of the table; the consumer checks events against them before writing. */
    public static final int MAX_ORDER_ID_LENGTH = 64;
    public static final int MAX_PHONE_LENGTH = 32;
    public static final int MAX_TEXT_LENGTH = 640;
    public static final int MAX_ERROR_LENGTH = 1024;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** {@code <orderId>:<eventType>}: unique, and the Idempotency-Key of every attempt. */
    @Column(name = "business_key", nullable = false, length = 255, unique = true)
    public String businessKey;

    @Column(name = "order_id", nullable = false, length = MAX_ORDER_ID_LENGTH)
    public String orderId;

    @Enumerated(EnumType.STRING)
    @Column(name = "event_type", nullable = false, length = 16)
    public OrderEventType eventType;

    @Column(name = "phone", nullable = false, length = MAX_PHONE_LENGTH)
    public String phone;

    @Column(name = "text", nullable = false, length = MAX_TEXT_LENGTH)
    public String text;

    @Enumerated(EnumType.STRING)
    @Column(name = "status", nullable = false, length = 16)
    public SmsStatus status;

    @Column(name = "attempts", nullable = false)
    public int attempts;

    @Column(name = "last_error", length = MAX_ERROR_LENGTH)
    public String lastError;

    @Column(name = "next_attempt_at", nullable = false)
    public Instant nextAttemptAt;

    @Column(name = "claim_token", length = 36)
    public String claimToken;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "sent_at")
    public Instant sentAt;
}
