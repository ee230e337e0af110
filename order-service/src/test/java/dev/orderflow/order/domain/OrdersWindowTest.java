package dev.orderflow.order.domain;

import static dev.orderflow.consumer.testing.ReconciliationWindow.HISTORY_AT;
import static dev.orderflow.consumer.testing.ReconciliationWindow.HISTORY_ROWS;
import static dev.orderflow.consumer.testing.ReconciliationWindow.WINDOW_FROM;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.consumer.testing.ReconciliationWindow;
import io.quarkus.test.junit.QuarkusTest;

/** status-service's reconciliation reads a window of orders; the orders before it stay unread. */
@QuarkusTest
class OrdersWindowTest {

    private static final String COLUMNS = "(id, customer_id, phone, amount, status, created_at, updated_at)";

    @Test
    void reconciliationReadsItsWindowOfOrdersWithoutReadingTheHistory() {
        // 26 characters, as the ULIDs order-service writes; no other test's id starts with W.
        CommittedState.execute("insert into orders " + COLUMNS + " select concat('WH', lpad(seq, 24, '0')),"
                + " 'window-customer', '+819000000000', 1.00, 'CREATED', ?, ? from seq_1_to_" + HISTORY_ROWS,
                HISTORY_AT, HISTORY_AT);
        for (String orderId : new String[] {"WW000000000000000000000001", "WW000000000000000000000002"}) {
            CommittedState.execute("insert into orders " + COLUMNS
                    + " values (?, 'window-customer', '+819000000000', 1.00, 'CREATED', ?, ?)", orderId,
                    WINDOW_FROM.plusHours(1), WINDOW_FROM.plusHours(1));
        }

        ReconciliationWindow.Read read = ReconciliationWindow.readByCreation("orders", "id");

        assertThat(read.ids()).containsExactlyInAnyOrder("WW000000000000000000000001", "WW000000000000000000000002");
        assertThat(read.rowsRead()).as("rows read").isLessThan(HISTORY_ROWS / 2);
    }
}
