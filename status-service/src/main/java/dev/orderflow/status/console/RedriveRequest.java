package dev.orderflow.status.console;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import dev.orderflow.sql.BatchSql;

/** A re-drive of one dead letter, or the abandon of its order (table {@code console_redrive_request}). */
public class RedriveRequest {

    /** What the request asks for. */
    public enum RequestAction {
        /** Send the dead letter to its group's retry topic. */
        REDRIVE,
        /** Give the order up: decide it FAILED and compensate it (never sends the dead letter). */
        ABANDON
    }

    public Long id;

    public RequestAction action = RequestAction.REDRIVE;

    public String consumer;

    public String consumerGroup;

    public String dlqMessageId;

    public String messageKey;

    public RedriveStatus status;

    public String requestedBy;

    public Instant requestedAt;

    public String comment;

    public String originalBody;

    /** Null: the original body is sent. */
    public String correctedBody;

    public String decidedBy;

    public Instant decidedAt;

    public String sentMessageId;

    public Instant sentAt;

    public String failure;

    static final String TABLE = "console_redrive_request";

    /** Inserts the new request (in the caller's transaction) and sets its {@link #id}. */
    void insert(DataSource dataSource) {
        id = BatchSql.insertReturningIds(dataSource, TABLE, List.of("action", "consumer", "consumer_group",
                "dlq_message_id", "message_key", "status", "requested_by", "requested_at", "comment", "original_body",
                "corrected_body"), List.of(Arrays.asList(action, consumer, consumerGroup, dlqMessageId, messageKey,
                        status, requestedBy, requestedAt, comment, originalBody, correctedBody)), "id").get(0);
    }

    /** Writes what a decision or a send changes (the rest never changes after {@link #insert}). */
    void updateDecision(DataSource dataSource) {
        BatchSql.update(dataSource, "update " + TABLE + " set status = ?, decided_by = ?, decided_at = ?,"
                + " sent_message_id = ?, sent_at = ?, failure = ? where id = ?",
                Arrays.asList(status, decidedBy, decidedAt, sentMessageId, sentAt, failure, id));
    }

    /** The request row {@code row} is on (every column selected). */
    static RedriveRequest read(ResultSet row) throws SQLException {
        RedriveRequest request = new RedriveRequest();
        request.id = row.getLong("id");
        request.action = RequestAction.valueOf(row.getString("action"));
        request.consumer = row.getString("consumer");
        request.consumerGroup = row.getString("consumer_group");
        request.dlqMessageId = row.getString("dlq_message_id");
        request.messageKey = row.getString("message_key");
        request.status = RedriveStatus.valueOf(row.getString("status"));
        request.requestedBy = row.getString("requested_by");
        request.requestedAt = BatchSql.instant(row, "requested_at");
        request.comment = row.getString("comment");
        request.originalBody = row.getString("original_body");
        request.correctedBody = row.getString("corrected_body");
        request.decidedBy = row.getString("decided_by");
        request.decidedAt = BatchSql.instant(row, "decided_at");
        request.sentMessageId = row.getString("sent_message_id");
        request.sentAt = BatchSql.instant(row, "sent_at");
        request.failure = row.getString("failure");
        return request;
    }

    /** The body that is (or was) sent. */
    public String bodyToSend() {
        return correctedBody != null ? correctedBody : originalBody;
    }
}
