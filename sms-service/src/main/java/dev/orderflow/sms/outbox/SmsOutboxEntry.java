package dev.orderflow.sms.outbox;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.sql.BatchSql;

/** One text to send (table {@code sms_outbox}, see {@code V1_1__sms_outbox.sql}). */
public class SmsOutboxEntry {

    /** Column limits of the table; the consumer checks events against them before writing. */
    public static final int MAX_ORDER_ID_LENGTH = 64;
    public static final int MAX_PHONE_LENGTH = 32;
    public static final int MAX_TEXT_LENGTH = 640;
    public static final int MAX_ERROR_LENGTH = 1024;

    /** Table-generated; set when read back. */
    public Long id;
    /** {@code <orderId>:<eventType>}: unique, and the Idempotency-Key of every attempt. */
    public String businessKey;
    public String orderId;
    /** The order's customer; null on rows written before it was recorded. */
    public String customerId;
    public OrderEventType eventType;
    public String phone;
    public String text;
    public SmsStatus status;
    public int attempts;
    public String lastError;
    public Instant nextAttemptAt;
    public String claimToken;
    public Instant createdAt;
    public Instant updatedAt;
    public Instant sentAt;

    /** Inserts new (PENDING, unclaimed) entries with one statement, in the caller's transaction. */
    public static void insert(DataSource dataSource, List<SmsOutboxEntry> entries) {
        BatchSql.insert(dataSource, "sms_outbox", List.of("business_key", "order_id", "customer_id", "event_type", "phone",
                "text", "status", "attempts", "next_attempt_at", "created_at", "updated_at"),
                entries.stream().<List<?>> map(e -> Arrays.asList(e.businessKey, e.orderId, e.customerId,
                        e.eventType, e.phone, e.text, e.status, e.attempts, e.nextAttemptAt, e.createdAt, e.updatedAt))
                        .toList());
    }

    /** The sms_outbox row {@code row} is on (every column selected by name). */
    static SmsOutboxEntry read(ResultSet row) throws SQLException {
        SmsOutboxEntry entry = new SmsOutboxEntry();
        entry.id = row.getLong("id");
        entry.businessKey = row.getString("business_key");
        entry.orderId = row.getString("order_id");
        entry.customerId = row.getString("customer_id");
        entry.eventType = OrderEventType.valueOf(row.getString("event_type"));
        entry.phone = row.getString("phone");
        entry.text = row.getString("text");
        entry.status = SmsStatus.valueOf(row.getString("status"));
        entry.attempts = row.getInt("attempts");
        entry.lastError = row.getString("last_error");
        entry.nextAttemptAt = BatchSql.instant(row, "next_attempt_at");
        entry.claimToken = row.getString("claim_token");
        entry.createdAt = BatchSql.instant(row, "created_at");
        entry.updatedAt = BatchSql.instant(row, "updated_at");
        entry.sentAt = BatchSql.instant(row, "sent_at");
        return entry;
    }
}
