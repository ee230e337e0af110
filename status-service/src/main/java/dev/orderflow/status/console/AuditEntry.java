package dev.orderflow.status.console;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import dev.orderflow.sql.BatchSql;

/** One console action (table {@code console_audit}): who did what, when, to which dead letter. */
public class AuditEntry {

    /** What was done. */
    public enum Action {
        REQUEST, APPROVE, REJECT, SEND, ABANDON
    }

    public Long id;

    public Instant at;

    public String actor;

    public Action action;

    public String consumer;

    public String consumerGroup;

    public Long requestId;

    public String dlqMessageId;

    public String messageKey;

    public String beforeBody;

    public String afterBody;

    /** The request's status after the action. */
    public RedriveStatus outcome;

    public String detail;

    static final String TABLE = "console_audit";

    /** Inserts the entry, in the caller's transaction. */
    void insert(DataSource dataSource) {
        BatchSql.insert(dataSource, TABLE, List.of("at", "actor", "action", "consumer", "consumer_group", "request_id",
                "dlq_message_id", "message_key", "before_body", "after_body", "outcome", "detail"),
                List.of(Arrays.asList(at, actor, action, consumer, consumerGroup, requestId, dlqMessageId, messageKey,
                        beforeBody, afterBody, outcome, detail)));
    }

    /** The audit row {@code row} is on (every column selected). */
    static AuditEntry read(ResultSet row) throws SQLException {
        AuditEntry entry = new AuditEntry();
        entry.id = row.getLong("id");
        entry.at = BatchSql.instant(row, "at");
        entry.actor = row.getString("actor");
        entry.action = Action.valueOf(row.getString("action"));
        entry.consumer = row.getString("consumer");
        entry.consumerGroup = row.getString("consumer_group");
        long requestId = row.getLong("request_id");
        entry.requestId = row.wasNull() ? null : requestId;
        entry.dlqMessageId = row.getString("dlq_message_id");
        entry.messageKey = row.getString("message_key");
        entry.beforeBody = row.getString("before_body");
        entry.afterBody = row.getString("after_body");
        entry.outcome = RedriveStatus.valueOf(row.getString("outcome"));
        entry.detail = row.getString("detail");
        return entry;
    }
}
