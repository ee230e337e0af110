package dev.orderflow.sms;

import static dev.orderflow.consumer.testing.ReconciliationWindow.HISTORY_AT;
import static dev.orderflow.consumer.testing.ReconciliationWindow.HISTORY_ROWS;
import static dev.orderflow.consumer.testing.ReconciliationWindow.WINDOW_FROM;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.consumer.testing.ReconciliationWindow;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** status-service's reconciliation reads a window of the outbox; the texts before it stay unread. */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SmsOutboxWindowTest {

    /** SENT rows whose last attempt is "due" this far ahead: no dispatcher claims them, the purge never takes them. */
    private static final LocalDateTime LAST_ATTEMPT = LocalDateTime.of(2100, 1, 1, 0, 0);
    private static final String COLUMNS = "(business_key, order_id, event_type, phone, text, status, next_attempt_at,"
            + " created_at, updated_at)";

    @Test
    void reconciliationReadsItsWindowOfTextsWithoutReadingTheHistory() {
        CommittedState.execute("insert into sms_outbox " + COLUMNS + " select concat('WINDOW-HISTORY-', seq, ':CREATE'),"
                + " concat('WINDOW-HISTORY-', seq), 'CREATE', '+819000000000', 'history', 'SENT', ?, ?, ?"
                + " from seq_1_to_" + HISTORY_ROWS, LAST_ATTEMPT, HISTORY_AT, HISTORY_AT);
        for (String orderId : new String[] {"WINDOW-1", "WINDOW-2"}) {
            CommittedState.execute("insert into sms_outbox " + COLUMNS
                    + " values (?, ?, 'CREATE', '+819000000000', 'in the window', 'SENT', ?, ?, ?)", orderId + ":CREATE",
                    orderId, LAST_ATTEMPT, WINDOW_FROM.plusHours(1), WINDOW_FROM.plusHours(1));
        }

        ReconciliationWindow.Read read = ReconciliationWindow.read("sms_outbox", "order_id");

        assertThat(read.ids()).containsExactlyInAnyOrder("WINDOW-1", "WINDOW-2");
        assertThat(read.rowsRead()).as("rows read").isLessThan(HISTORY_ROWS / 2);
    }
}
