package dev.orderflow.consumer;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import dev.orderflow.sql.BatchSql;

/**
 * A result report waiting in the outbox ({@code consume_report}, from
 * {@code V1_0_1__consume_report.sql}) to be sent by {@link ConsumeReportRelay}.
 */
public class PendingReport {

    /** Table-generated; set once the row is written. */
    public Long id;

    /** The group whose consumption produced the report (for the operator). */
    public String consumerGroup;

    /** The consumed message's business key. */
    public String messageKey;

    /** KEYS of the report message: {@code <orderId>:<eventType>:<consumer>}. */
    public String reportKey;

    /** The consumer's short name: tag of the report message. */
    public String consumer;

    /** DONE, REJECTED or DEAD_LETTERED (for the operator; the body carries it too). */
    public String outcome;

    /** The ConsumerReport JSON, sent as is. */
    public String body;

    public Instant createdAt;

    /** The consume_report row {@code row} is on (every column selected by name). */
    static PendingReport read(ResultSet row) throws SQLException {
        PendingReport report = new PendingReport();
        report.id = row.getLong("id");
        report.consumerGroup = row.getString("consumer_group");
        report.messageKey = row.getString("message_key");
        report.reportKey = row.getString("report_key");
        report.consumer = row.getString("consumer");
        report.outcome = row.getString("outcome");
        report.body = row.getString("body");
        report.createdAt = BatchSql.instant(row, "created_at");
        return report;
    }
}
