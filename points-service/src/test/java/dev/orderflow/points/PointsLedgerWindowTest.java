package dev.orderflow.points;

import static dev.orderflow.consumer.testing.ReconciliationWindow.HISTORY_AT;
import static dev.orderflow.consumer.testing.ReconciliationWindow.HISTORY_ROWS;
import static dev.orderflow.consumer.testing.ReconciliationWindow.WINDOW_FROM;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.consumer.testing.ReconciliationWindow;
import io.quarkus.test.junit.QuarkusTest;

/** status-service's reconciliation reads a window of the points ledger; the history before it stays unread. */
@QuarkusTest
class PointsLedgerWindowTest {

    @Test
    void reconciliationReadsItsWindowOfLedgerRowsWithoutReadingTheHistory() {
        CommittedState.execute("insert into points_ledger (order_id, customer_id, reason, points, created_at)"
                + " select concat('WINDOW-HISTORY-', seq), 'WINDOW-CUSTOMER', 'ORDER_CREDIT', 1, ? from seq_1_to_"
                + HISTORY_ROWS, HISTORY_AT);
        for (String orderId : new String[] {"WINDOW-1", "WINDOW-2"}) {
            CommittedState.execute("insert into points_ledger (order_id, customer_id, reason, points, created_at)"
                    + " values (?, 'WINDOW-CUSTOMER', 'ORDER_CREDIT', 1, ?)", orderId, WINDOW_FROM.plusHours(1));
        }

        ReconciliationWindow.Read read = ReconciliationWindow.read("points_ledger", "order_id");

        assertThat(read.ids()).containsExactlyInAnyOrder("WINDOW-1", "WINDOW-2");
        assertThat(read.rowsRead()).as("rows read").isLessThan(HISTORY_ROWS / 2);
    }
}
