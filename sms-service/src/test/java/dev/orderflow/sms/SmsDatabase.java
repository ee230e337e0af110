package dev.orderflow.sms;

import java.util.List;
import java.util.Map;

import dev.orderflow.consumer.testing.CommittedState;

/** The committed sms_outbox and pipeline rows of the test database (orderflow_sms_test on the real MariaDB). */
final class SmsDatabase {

    private static final String OUTBOX_COLUMNS = "select business_key, order_id, event_type, phone, text, status, "
            + "attempts, last_error, sent_at from sms_outbox ";

    private SmsDatabase() {
    }

    /** The outbox row with this business key, or null. */
    static OutboxRow outboxRow(String businessKey) {
        List<OutboxRow> rows = CommittedState.rows(OUTBOX_COLUMNS + "where business_key = ?", businessKey).stream()
                .map(OutboxRow::of).toList();
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Every outbox row of an order, oldest first. */
    static List<OutboxRow> outboxRowsOfOrder(String orderId) {
        return CommittedState.rows(OUTBOX_COLUMNS + "where order_id = ? order by id", orderId).stream()
                .map(OutboxRow::of).toList();
    }

    static long count(String sql, Object... params) {
        return CommittedState.number(sql, params);
    }

    /** MariaDB's count of rows read in full scans, server-wide (Handler_read_rnd_next). */
    static long rowsReadInFullScans() {
        return CommittedState.number("select cast(variable_value as unsigned) from information_schema.global_status"
                + " where variable_name = 'HANDLER_READ_RND_NEXT'");
    }

    /** The pipeline's outcome for (sms_group, key): {@code DONE}, {@code REJECTED: reason}, or null when not consumed. */
    static String consumeOutcome(String key) {
        List<Map<String, Object>> rows = CommittedState.rows("select outcome, outcome_reason from consume_record "
                + "where consumer_group = 'sms_group' and message_key = ?", key);
        if (rows.isEmpty()) {
            return null;
        }
        Object reason = rows.get(0).get("outcome_reason");
        return rows.get(0).get("outcome") + (reason == null ? "" : ": " + reason);
    }

    /** An sms_outbox row as committed. */
    record OutboxRow(String businessKey, String orderId, String eventType, String phone, String text, String status,
            int attempts, String lastError, boolean hasSentAt) {

        static OutboxRow of(Map<String, Object> row) {
            return new OutboxRow((String) row.get("business_key"), (String) row.get("order_id"),
                    (String) row.get("event_type"), (String) row.get("phone"), (String) row.get("text"),
                    (String) row.get("status"), ((Number) row.get("attempts")).intValue(),
                    (String) row.get("last_error"), row.get("sent_at") != null);
        }
    }
}
