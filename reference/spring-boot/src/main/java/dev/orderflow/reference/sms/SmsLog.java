package dev.orderflow.reference.sms;

import java.time.LocalDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One text "sent" per order: recorded only, nothing is sent. */
@Entity
@Table(name = "sms_log")
public class SmsLog {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "order_id", nullable = false)
    private String orderId;

    @Column(nullable = false)
    private String phone;

    @Column(nullable = false)
    private String text;

    @Column(name = "sent_at", nullable = false)
    private LocalDateTime sentAt;

    protected SmsLog() {
    }

    public SmsLog(String orderId, String phone, String text) {
        this.orderId = orderId;
        this.phone = phone;
        this.text = text;
        this.sentAt = LocalDateTime.now();
    }

    public String getOrderId() {
        return orderId;
    }
}
