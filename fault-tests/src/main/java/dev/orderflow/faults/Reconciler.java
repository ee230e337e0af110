package dev.orderflow.faults;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingException;

import dev.orderflow.faults.Observations.DeadLetterEntry;
import dev.orderflow.faults.Observations.LedgerEntry;
import dev.orderflow.faults.Observations.OrderRow;
import dev.orderflow.faults.Observations.StockMovement;
import dev.orderflow.faults.Observations.Text;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;

/**
 * Reads {@link Observations} from the services' databases (plain JDBC on the real MariaDB) and
 * from the consumer groups' dead-letter queues (a pull consumer that reads from offset 0 and
 * commits nothing, so every read sees the whole DLQ).
 */
public final class Reconciler implements AutoCloseable {

    /** The consumer groups whose DLQs poison messages must reach. */
    static final List<String> DLQ_GROUPS = List.of(OrderMessaging.INVENTORY_GROUP, OrderMessaging.SMS_GROUP,
            OrderMessaging.POINTS_GROUP);

    /** Properties of a DLQ entry (RocketMQDeadLetters in quarkus-rocketmq, a Quarkus runtime module not on this path). */
    private static final String DLQ_FAILURE_CLASS = "DLQ_FAILURE_CLASS";
    private static final String DLQ_ATTEMPTS = "DLQ_ATTEMPTS";

    /** {@code CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE} (idempotent-consumer, a Quarkus module). */
    private static final String CANCELLED_BEFORE_CREATE = "cancelled before create";

    private final FaultSuite suite;
    @SuppressWarnings("deprecation") // the plain pull consumer reads a queue from any offset without a group offset
    private final DefaultMQPullConsumer dlqReader;

    @SuppressWarnings("deprecation")
    public Reconciler(FaultSuite suite) {
        this.suite = suite;
        this.dlqReader = new DefaultMQPullConsumer("fault_tests_dlq_reader");
        dlqReader.setNamesrvAddr(suite.nameServerAddress());
        dlqReader.setInstanceName("fault-tests-" + ProcessHandle.current().pid());
        try {
            dlqReader.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("DLQ reader did not start", e);
        }
    }

    public Observations read() {
        try {
            return new Observations(orders(), stockMovements(), longs("inventory-service",
                    "SELECT sku, available FROM stock"), ledger(), longs("points-service",
                    "SELECT customer_id, balance FROM points_account"), texts(), states(), deadLetters(),
                    Map.of(OrderMessaging.INVENTORY_GROUP, cancelledBeforeCreate("inventory-service"),
                            OrderMessaging.SMS_GROUP, cancelledBeforeCreate("sms-service"),
                            OrderMessaging.POINTS_GROUP, cancelledBeforeCreate("points-service")));
        } catch (SQLException e) {
            throw new IllegalStateException("Reconciliation could not read the databases", e);
        }
    }

    private Map<String, OrderRow> orders() throws SQLException {
        Map<String, Map<String, Long>> quantities = new HashMap<>();
        Map<String, OrderRow> orders = new HashMap<>();
        try (Connection connection = suite.connect("order-service"); Statement statement = connection.createStatement()) {
            try (ResultSet items = statement.executeQuery("SELECT order_id, sku, quantity FROM order_items")) {
                while (items.next()) {
                    quantities.computeIfAbsent(items.getString(1), k -> new HashMap<>())
                            .merge(items.getString(2), items.getLong(3), Long::sum);
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT id, customer_id, amount, status FROM orders")) {
                while (rows.next()) {
                    String id = rows.getString(1);
                    orders.put(id, new OrderRow(id, rows.getString(2), rows.getBigDecimal(3),
                            "CANCELLED".equals(rows.getString(4)), Map.copyOf(quantities.getOrDefault(id, Map.of()))));
                }
            }
        }
        return orders;
    }

    private List<StockMovement> stockMovements() throws SQLException {
        List<StockMovement> movements = new ArrayList<>();
        try (Connection connection = suite.connect("inventory-service"); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT order_id, sku, kind, quantity FROM stock_movement")) {
            while (rows.next()) {
                movements.add(new StockMovement(rows.getString(1), rows.getString(2), rows.getString(3), rows.getLong(4)));
            }
        }
        return movements;
    }

    private List<LedgerEntry> ledger() throws SQLException {
        List<LedgerEntry> entries = new ArrayList<>();
        try (Connection connection = suite.connect("points-service"); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT order_id, customer_id, reason, points FROM points_ledger")) {
            while (rows.next()) {
                entries.add(new LedgerEntry(rows.getString(1), rows.getString(2), rows.getString(3), rows.getLong(4)));
            }
        }
        return entries;
    }

    private List<Text> texts() throws SQLException {
        List<Text> texts = new ArrayList<>();
        try (Connection connection = suite.connect("sms-service"); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT order_id, event_type FROM sms_outbox")) {
            while (rows.next()) {
                // sms-service stores the event type in upper case (CREATE/CANCEL)
                texts.add(new Text(rows.getString(1), rows.getString(2).toLowerCase(java.util.Locale.ROOT)));
            }
        }
        return texts;
    }

    /**
     * Orders whose create the service's consumer rejected because their cancel came first
     * ({@code CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE} in idempotent-consumer).
     */
    private Set<String> cancelledBeforeCreate(String service) throws SQLException {
        Set<String> orderIds = new HashSet<>();
        try (Connection connection = suite.connect(service); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT message_key FROM consume_record"
                        + " WHERE outcome = 'REJECTED' AND outcome_reason = '" + CANCELLED_BEFORE_CREATE + "'")) {
            while (rows.next()) {
                OrderMessaging.MessageKey key = OrderMessaging.parseMessageKey(rows.getString(1));
                if (key != null && key.eventType() == OrderEventType.CREATE) {
                    orderIds.add(key.orderId());
                }
            }
        }
        return orderIds;
    }

    private Map<String, String> states() throws SQLException {
        Map<String, String> states = new HashMap<>();
        try (Connection connection = suite.connect("status-service"); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT order_id, state FROM order_message_consume_status")) {
            while (rows.next()) {
                states.put(rows.getString(1), rows.getString(2));
            }
        }
        return states;
    }

    private Map<String, Long> longs(String service, String query) throws SQLException {
        Map<String, Long> values = new HashMap<>();
        try (Connection connection = suite.connect(service); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
                values.put(rows.getString(1), rows.getLong(2));
            }
        }
        return values;
    }

    /** Every entry of the groups' DLQs; a DLQ that does not exist yet has none. */
    @SuppressWarnings("deprecation")
    private List<DeadLetterEntry> deadLetters() {
        List<DeadLetterEntry> entries = new ArrayList<>();
        for (String group : DLQ_GROUPS) {
            Set<MessageQueue> queues;
            try {
                queues = dlqReader.fetchSubscribeMessageQueues(OrderMessaging.deadLetterQueueOf(group));
            } catch (MQClientException e) {
                continue; // no route yet: nothing was dead-lettered in this group
            }
            for (MessageQueue queue : queues) {
                long offset = 0;
                while (true) {
                    PullResult result;
                    try {
                        result = dlqReader.pull(queue, "*", offset, 32);
                    } catch (MQClientException | RemotingException | MQBrokerException e) {
                        throw new IllegalStateException("Cannot read " + queue, e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("Interrupted while reading " + queue, e);
                    }
                    if (result.getPullStatus() != PullStatus.FOUND) {
                        break;
                    }
                    for (MessageExt message : result.getMsgFoundList()) {
                        String attempts = message.getUserProperty(DLQ_ATTEMPTS);
                        entries.add(new DeadLetterEntry(group, message.getKeys(), message.getUserProperty(DLQ_FAILURE_CLASS),
                                attempts == null ? 0 : Integer.parseInt(attempts)));
                    }
                    offset = result.getNextBeginOffset();
                }
            }
        }
        return entries;
    }

    @Override
    @SuppressWarnings("deprecation")
    public void close() {
        dlqReader.shutdown();
    }
}
