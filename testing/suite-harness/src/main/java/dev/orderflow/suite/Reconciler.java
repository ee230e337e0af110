package dev.orderflow.suite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.order.events.OwedEffects;
import dev.orderflow.suite.Observations.DeadLetterEntry;
import dev.orderflow.suite.Observations.LedgerEntry;
import dev.orderflow.suite.Observations.OrderRow;
import dev.orderflow.suite.Observations.StockMovement;
import dev.orderflow.suite.Observations.Text;

/**
 * Reads {@link Observations} from the services' databases (plain JDBC on the real MariaDB) and
 * from the consumer groups' dead-letter queues (a pull consumer that reads from offset 0 and
 * commits nothing, so every read sees the whole DLQ).
 */
public final class Reconciler implements AutoCloseable {

    /** The consumer groups whose DLQs poison messages must reach. */
    public static final List<String> DLQ_GROUPS = List.of(OrderMessaging.INVENTORY_GROUP, OrderMessaging.SMS_GROUP,
            OrderMessaging.POINTS_GROUP);

    /** Properties of a DLQ entry (RocketMQDeadLetters in quarkus-rocketmq, a Quarkus runtime module not on this path). */
    private static final String DLQ_FAILURE_CLASS = "DLQ_FAILURE_CLASS";
    private static final String DLQ_ATTEMPTS = "DLQ_ATTEMPTS";

    private final SuiteUnderTest suite;
    private final TopicReader dlqReader;

    public Reconciler(SuiteUnderTest suite) {
        this.suite = suite;
        this.dlqReader = new TopicReader(suite.nameServerAddress(), "fault_tests_dlq_reader", suite.brokerTools());
    }

    public Observations read() {
        try {
            Map<String, Map<String, Long>> quantities = new HashMap<>();
            query("order-service", "SELECT order_id, sku, quantity FROM order_items", row -> quantities
                    .computeIfAbsent(row.getString(1), k -> new HashMap<>()).merge(row.getString(2), row.getLong(3), Long::sum));
            Map<String, OrderRow> orders = new HashMap<>();
            query("order-service", "SELECT id, customer_id, amount, status FROM orders", row -> orders.put(row.getString(1),
                    new OrderRow(row.getString(1), row.getString(2), row.getBigDecimal(3), row.getString(4),
                            Map.copyOf(quantities.getOrDefault(row.getString(1), Map.of())))));
            List<StockMovement> movements = new ArrayList<>();
            query("inventory-service", "SELECT order_id, sku, kind, quantity FROM stock_movement", row -> movements.add(
                    new StockMovement(row.getString(1), row.getString(2), row.getString(3), row.getLong(4))));
            Map<String, Long> stock = new HashMap<>();
            query("inventory-service", "SELECT sku, available FROM stock", row -> stock.put(row.getString(1), row.getLong(2)));
            List<LedgerEntry> ledger = new ArrayList<>();
            query("points-service", "SELECT order_id, customer_id, reason, points FROM points_ledger", row -> ledger.add(
                    new LedgerEntry(row.getString(1), row.getString(2), row.getString(3), row.getLong(4))));
            Map<String, Long> balances = new HashMap<>();
            query("points-service", "SELECT customer_id, balance FROM points_account",
                    row -> balances.put(row.getString(1), row.getLong(2)));
            List<Text> texts = new ArrayList<>();
            // sms-service stores the event type in upper case (CREATE/CANCEL/FAIL)
            query("sms-service", "SELECT order_id, event_type, status FROM sms_outbox", row -> texts.add(
                    new Text(row.getString(1), row.getString(2).toLowerCase(Locale.ROOT), row.getString(3))));
            Map<String, String> states = new HashMap<>();
            query("status-service", "SELECT order_id, state FROM order_message_consume_status",
                    row -> states.put(row.getString(1), row.getString(2)));
            Map<String, Set<String>> rejectedCreates = new HashMap<>();
            for (OwedEffects.Consumer consumer : OwedEffects.Consumer.values()) {
                rejectedCreates.put(consumer.group(), rejectedCreates(consumer.label() + "-service"));
            }
            return new Observations(orders, movements, stock, ledger, balances, texts, states, deadLetters(),
                    rejectedCreates);
        } catch (SQLException e) {
            throw new IllegalStateException("Reconciliation could not read the databases", e);
        }
    }

    /** Orders whose create the service's consumer rejected, for whatever reason. */
    private Set<String> rejectedCreates(String service) throws SQLException {
        Set<String> orderIds = new HashSet<>();
        query(service, "SELECT message_key FROM consume_record WHERE outcome = 'REJECTED'", row -> {
                    OrderMessaging.MessageKey key = OrderMessaging.parseMessageKey(row.getString(1));
                    if (key != null && key.eventType() == OrderEventType.CREATE) {
                        orderIds.add(key.orderId());
                    }
                });
        return orderIds;
    }

    /** Runs {@code sql} on the service's database and hands each row to {@code eachRow}. */
    private void query(String service, String sql, RowConsumer eachRow) throws SQLException {
        try (Connection connection = suite.connect(service); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                eachRow.accept(rows);
            }
        }
    }

    @FunctionalInterface
    private interface RowConsumer {
        void accept(ResultSet row) throws SQLException;
    }

    /** Every entry of the groups' DLQs; a DLQ that does not exist yet has none. */
    private List<DeadLetterEntry> deadLetters() {
        List<DeadLetterEntry> entries = new ArrayList<>();
        for (String group : DLQ_GROUPS) {
            dlqReader.forEach(OrderMessaging.deadLetterQueueOf(group), message -> {
                String attempts = message.getUserProperty(DLQ_ATTEMPTS);
                entries.add(new DeadLetterEntry(group, message.getKeys(), message.getUserProperty(DLQ_FAILURE_CLASS),
                        attempts == null ? 0 : Integer.parseInt(attempts)));
            });
        }
        return entries;
    }

    @Override
    public void close() {
        dlqReader.close();
    }
}
