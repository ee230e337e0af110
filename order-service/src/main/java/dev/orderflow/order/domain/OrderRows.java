package dev.orderflow.order.domain;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.sql.BatchSql;

/**
 * The {@code orders} and {@code order_items} tables in plain JDBC, on the caller's connection (so
 * in the caller's transaction, if any). Instants are stored as UTC wall-clock time, as
 * {@link BatchSql} binds them.
 */
public final class OrderRows {

    private static final List<String> ORDER_COLUMNS = List.of("id", "customer_id", "phone", "amount", "status",
            "idempotency_key", "request_hash", "created_at", "updated_at", "version");
    /** Written by the outcome updates, read with the rest. */
    private static final List<String> OUTCOME_COLUMNS = List.of("outcome_at", "failure_consumer", "failure_class",
            "failure_reason");
    private static final List<String> LINE_COLUMNS = List.of("order_id", "line_no", "sku", "quantity", "unit_price");
    private static final String SELECT_ORDERS = "select " + String.join(", ", ORDER_COLUMNS) + ", "
            + String.join(", ", OUTCOME_COLUMNS) + " from orders";

    private OrderRows() {
    }

    /** Inserts the orders and all their lines: one INSERT per table. */
    public static void insert(Connection connection, List<Order> orders) throws SQLException {
        List<List<?>> orderRows = new ArrayList<>(orders.size());
        List<List<?>> lineRows = new ArrayList<>();
        for (Order order : orders) {
            orderRows.add(Arrays.asList(order.id, order.customerId, order.phone, order.amount, order.status,
                    order.idempotencyKey, order.requestHash, order.createdAt, order.updatedAt, order.version));
            order.items.forEach(line -> lineRows.add(List.of(order.id, line.lineNo, line.sku, line.quantity,
                    line.unitPrice)));
        }
        BatchSql.insert(connection, "orders", ORDER_COLUMNS, orderRows);
        BatchSql.insert(connection, "order_items", LINE_COLUMNS, lineRows);
    }

    public static Optional<Order> find(Connection connection, String id) throws SQLException {
        return first(connection, SELECT_ORDERS + " where id = ?", List.of(id));
    }

    /** The order with its row locked until the transaction ends (serialises concurrent cancels). */
    public static Optional<Order> findForUpdate(Connection connection, String id) throws SQLException {
        return first(connection, SELECT_ORDERS + " where id = ? for update", List.of(id));
    }

    public static Optional<Order> findByIdempotencyKey(Connection connection, String key) throws SQLException {
        return first(connection, SELECT_ORDERS + " where idempotency_key = ?", List.of(key));
    }

    /** The order's status, if its row exists (committed, or written by the caller's transaction). */
    public static Optional<OrderStatus> statusOf(Connection connection, String id) throws SQLException {
        return BatchSql.select(connection, "select status from orders where id = ?", List.of(id),
                row -> OrderStatus.valueOf(row.getString(1))).stream().findFirst();
    }

    /** A page of the customer's orders, newest first (ties: higher id first). */
    public static List<Order> pageOfCustomer(Connection connection, String customerId, int page, int size)
            throws SQLException {
        return withLines(connection, BatchSql.select(connection, SELECT_ORDERS
                + " where customer_id = ? order by created_at desc, id desc limit ? offset ?",
                List.of(customerId, size, (long) page * size), OrderRows::order));
    }

    public static long countOfCustomer(Connection connection, String customerId) throws SQLException {
        return BatchSql.select(connection, "select count(*) from orders where customer_id = ?", List.of(customerId),
                row -> row.getLong(1)).get(0);
    }

    /** Writes the order's status, outcome time and update time, and counts the change in {@code version}. */
    public static void updateStatus(Connection connection, Order order) throws SQLException {
        int updated = BatchSql.update(connection, "update orders set status = ?, outcome_at = ?, updated_at = ?,"
                + " version = version + 1 where id = ?", Arrays.asList(order.status, order.outcomeAt, order.updatedAt,
                        order.id));
        if (updated != 1) {
            throw new IllegalStateException("order " + order.id + ": " + updated + " rows updated");
        }
        order.version++;
    }

    /**
     * Records that these orders COMPLETED, each at its time, where still CREATED (a duplicate
     * outcome, or one for an order cancelled meanwhile, changes nothing): one statement for all.
     *
     * @param reachedAt when each order completed, by order id
     * @return the rows changed
     */
    public static int recordCompleted(Connection connection, Map<String, Instant> reachedAt, Instant now)
            throws SQLException {
        return recordOutcomeTimes(connection, "status = ?, ", List.of(OrderStatus.COMPLETED), reachedAt, now,
                " and status = ?", List.of(OrderStatus.CREATED));
    }

    /**
     * Records when CANCELLED orders' reversals were all done, once each: one statement for all.
     *
     * @param reachedAt when each order's cancellation ended, by order id
     * @return the rows changed
     */
    public static int recordCancelDone(Connection connection, Map<String, Instant> reachedAt, Instant now)
            throws SQLException {
        return recordOutcomeTimes(connection, "", List.of(), reachedAt, now, " and status = ? and outcome_at is null",
                List.of(OrderStatus.CANCELLED));
    }

    /**
     * {@code update orders set <set>outcome_at = case id when ? then ? ... end, ... where id in (...)<condition>}:
     * a batch of outcomes in one round trip instead of one UPDATE per order.
     */
    private static int recordOutcomeTimes(Connection connection, String set, List<?> setParameters,
            Map<String, Instant> reachedAt, Instant now, String condition, List<?> conditionParameters)
            throws SQLException {
        if (reachedAt.isEmpty()) {
            return 0;
        }
        StringBuilder sql = new StringBuilder("update orders set ").append(set).append("outcome_at = case id");
        List<Object> parameters = new ArrayList<>(setParameters);
        reachedAt.forEach((id, at) -> {
            sql.append(" when ? then ?");
            parameters.add(id);
            parameters.add(at);
        });
        sql.append(" end, updated_at = ?, version = version + 1 where id in (")
                .append(BatchSql.parameters(reachedAt.size())).append(')').append(condition);
        parameters.add(now);
        parameters.addAll(reachedAt.keySet());
        parameters.addAll(conditionParameters);
        return BatchSql.update(connection, sql.toString(), parameters);
    }

    /** Writes FAILED with when and why, on the row the caller locked ({@link #findForUpdate}). */
    public static void updateFailed(Connection connection, Order order) throws SQLException {
        int updated = BatchSql.update(connection, "update orders set status = ?, outcome_at = ?, failure_consumer = ?,"
                + " failure_class = ?, failure_reason = ?, updated_at = ?, version = version + 1 where id = ?",
                Arrays.asList(OrderStatus.FAILED, order.outcomeAt, order.failure.consumer(), order.failure.failureClass(),
                        order.failure.reason(), order.updatedAt, order.id));
        if (updated != 1) {
            throw new IllegalStateException("order " + order.id + ": " + updated + " rows updated");
        }
        order.status = OrderStatus.FAILED;
        order.version++;
    }

    private static Optional<Order> first(Connection connection, String sql, List<?> parameters) throws SQLException {
        return withLines(connection, BatchSql.select(connection, sql, parameters, OrderRows::order)).stream().findFirst();
    }

    /** Reads the lines of {@code orders} with one query and adds them, in line order. */
    private static List<Order> withLines(Connection connection, List<Order> orders) throws SQLException {
        if (orders.isEmpty()) {
            return orders;
        }
        Map<String, Order> byId = new LinkedHashMap<>();
        orders.forEach(order -> byId.put(order.id, order));
        List<LineRow> lines = BatchSql.select(connection, "select order_id, line_no, sku, quantity, unit_price"
                + " from order_items where order_id in (" + BatchSql.parameters(byId.size()) + ")"
                + " order by order_id, line_no", List.copyOf(byId.keySet()), row -> {
                    OrderLine line = new OrderLine(row.getString("sku"), row.getInt("quantity"),
                            row.getBigDecimal("unit_price"));
                    line.lineNo = row.getInt("line_no");
                    return new LineRow(row.getString("order_id"), line);
                });
        lines.forEach(row -> byId.get(row.orderId()).items.add(row.line()));
        return orders;
    }

    private static Order order(ResultSet row) throws SQLException {
        Order order = new Order();
        order.id = row.getString("id");
        order.customerId = row.getString("customer_id");
        order.phone = row.getString("phone");
        order.amount = row.getBigDecimal("amount");
        order.status = OrderStatus.valueOf(row.getString("status"));
        order.idempotencyKey = row.getString("idempotency_key");
        order.requestHash = row.getString("request_hash");
        order.createdAt = BatchSql.instant(row, "created_at");
        order.updatedAt = BatchSql.instant(row, "updated_at");
        order.version = row.getInt("version");
        order.outcomeAt = BatchSql.instant(row, "outcome_at");
        String failureConsumer = row.getString("failure_consumer");
        order.failure = failureConsumer == null ? null
                : new OrderFailure(failureConsumer, row.getString("failure_class"), row.getString("failure_reason"));
        return order;
    }

    private record LineRow(String orderId, OrderLine line) {
    }
}
