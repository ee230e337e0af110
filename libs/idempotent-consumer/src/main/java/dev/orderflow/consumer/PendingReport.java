package dev.orderflow.consumer;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import dev.orderflow.sql.BatchSql;

/**
 * A message waiting in the outbox ({@code consume_report}, from {@code V1_0_1__consume_report.sql})
 * to be sent by {@link ConsumeReportRelay}: a consumer's result report, or a message the
 * application put there ({@link ConsumeReporter#enqueue}: the fields then name its KEYS, tag and kind).
 */
public class PendingReport {

    /** Table-generated; set once the row is written. */
    public Long id;

    /** The group whose consumption produced the report (for the operator). */
    public String consumerGroup;

    /** The consumed message's business key. */
    public String messageKey;

    /** KEYS of the message: for a report {@code <orderId>:<eventType>:<consumer>}. */
    public String reportKey;

    /** Tag of the message: for a report the consumer's short name (at most 32 characters). */
    public String consumer;

    /** For the operator (the body carries it too): a report's DONE, REJECTED or DEAD_LETTERED (at most 16 characters). */
    public String outcome;

    /** The message body (a report's ConsumerReport JSON), sent as is; at most 4000 characters. */
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
