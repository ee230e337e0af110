package dev.orderflow.status.reconciliation;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.orderflow.order.events.OwedEffects;
import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.DataSource;

/**
 * Reads what reconciliation compares, with plain JDBC: orders (order-service's {@code orders},
 * {@code order_items}), the consumers' effects (inventory's {@code stock_movement}, points'
 * {@code points_ledger}, sms' {@code sms_outbox}) through the read-only named datasources, and
 * this service's own {@code order_consumer_outcome} (a consumer that REJECTED a create owes no
 * effect). The owning services' Flyway migrations define these tables. Instants are UTC
 * DATETIME(3) in every database. Plain JDBC, because the other services' tables are not this
 * service's entities.
 */
@ApplicationScoped
public class ReconciliationSources {

    /** Ids per IN list: far below MariaDB's limits, few round trips. */
    private static final int IN_CHUNK = 500;

    /** An order in the window: its id, amount, status (CREATED, COMPLETED, CANCELLED or FAILED) and times. */
    public record OrderRow(String id, BigDecimal amount, String status, Instant createdAt, Instant updatedAt) {
    }

    /** Units ordered of one SKU (lines of one SKU added up, as inventory deducts them). */
    public record OrderedSku(String orderId, String sku, long quantity) {
    }

    /** A stock_movement row: DEDUCT (create) or RESTORE (cancel). */
    public record StockMovementRow(String orderId, String sku, String kind, long quantity) {
    }

    /** A points_ledger row: ORDER_CREDIT (create) or ORDER_REVERSAL (cancel, negative points). */
    public record PointsLedgerRow(String orderId, String reason, long points) {
    }

    /** An sms_outbox row: a text decided for the order's CREATE, CANCEL or FAIL, and where it stands. */
    public record SmsRow(String orderId, String eventType, String status) {
    }

    /** A consumer's outcome of an order event as this service recorded it (DONE | REJECTED | DEAD_LETTERED). */
    public record OutcomeRow(String orderId, String consumer, String eventType, String outcome) {
    }

    private final AgroalDataSource orders;
    private final AgroalDataSource inventory;
    private final AgroalDataSource points;
    private final AgroalDataSource sms;
    private final AgroalDataSource status;

    @Inject
    public ReconciliationSources(@DataSource("order-db") AgroalDataSource orders,
            @DataSource("inventory-db") AgroalDataSource inventory, @DataSource("points-db") AgroalDataSource points,
            @DataSource("sms-db") AgroalDataSource sms, AgroalDataSource status) {
        this.orders = orders;
        this.inventory = inventory;
        this.points = points;
        this.sms = sms;
        this.status = status;
    }

    /**
     * Streams the orders created in [from, to) to {@code work}, {@code chunkSize} at a time: a run
     * holds one chunk of orders and their effects, whatever the window. Returns the orders streamed.
     */
    public int forEachOrderChunk(Instant from, Instant to, int chunkSize, Consumer<List<OrderRow>> work) {
        return inChunks(orders, "select id, amount, status, created_at, updated_at from orders"
                + " where created_at >= ? and created_at < ?", List.of(from, to), chunkSize,
                rs -> new OrderRow(rs.getString(1), rs.getBigDecimal(2), rs.getString(3),
                        instant(rs, "created_at"), instant(rs, "updated_at")), work);
    }

    public List<OrderedSku> orderedSkus(Collection<String> orderIds) {
        return queryIn(orders, "select order_id, sku, sum(quantity) from order_items where order_id in (%s)"
                + " group by order_id, sku", orderIds,
                rs -> new OrderedSku(rs.getString(1), rs.getString(2), rs.getLong(3)));
    }

    /** Which of {@code orderIds} exist as orders (created at any time). */
    public Set<String> existingOrders(Collection<String> orderIds) {
        return new HashSet<>(queryIn(orders, "select id from orders where id in (%s)", orderIds,
                rs -> rs.getString(1)));
    }

    public List<StockMovementRow> stockMovements(Collection<String> orderIds) {
        return queryIn(inventory, "select order_id, sku, kind, quantity from stock_movement where order_id in (%s)",
                orderIds, rs -> new StockMovementRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4)));
    }

    public List<PointsLedgerRow> pointsLedger(Collection<String> orderIds) {
        return queryIn(points, "select order_id, reason, points from points_ledger where order_id in (%s)", orderIds,
                rs -> new PointsLedgerRow(rs.getString(1), rs.getString(2), rs.getLong(3)));
    }

    public List<SmsRow> smsOutbox(Collection<String> orderIds) {
        return queryIn(sms, "select order_id, event_type, status from sms_outbox where order_id in (%s)", orderIds,
                rs -> new SmsRow(rs.getString(1), rs.getString(2), rs.getString(3)));
    }

    public List<OutcomeRow> outcomes(Collection<String> orderIds) {
        return queryIn(status, "select order_id, consumer, event_type, outcome from order_consumer_outcome"
                + " where order_id in (%s)", orderIds,
                rs -> new OutcomeRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
    }

    /**
     * Streams the distinct order ids named by the effects of {@code consumer} (inventory, points, sms)
     * written in [from, to) to {@code work}, {@code chunkSize} at a time.
     */
    public void forEachEffectOrderIdChunk(OwedEffects.Consumer consumer, Instant from, Instant to, int chunkSize,
            Consumer<List<String>> work) {
        String table = switch (consumer) {
            case INVENTORY -> "stock_movement";
            case POINTS -> "points_ledger";
            case SMS -> "sms_outbox";
        };
        AgroalDataSource source = switch (consumer) {
            case INVENTORY -> inventory;
            case POINTS -> points;
            case SMS -> sms;
        };
        inChunks(source, "select distinct order_id from " + table + " where created_at >= ? and created_at < ?",
                List.of(from, to), chunkSize, rs -> rs.getString(1), work);
    }

    /** Turns the current row of a result into a value. */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    private static <T> List<T> queryIn(AgroalDataSource source, String sqlWithIn, Collection<String> ids,
            RowReader<T> reader) {
        List<String> all = List.copyOf(ids);
        List<T> rows = new ArrayList<>();
        for (int start = 0; start < all.size(); start += IN_CHUNK) {
            List<String> chunk = all.subList(start, Math.min(all.size(), start + IN_CHUNK));
            String sql = String.format(sqlWithIn, String.join(", ", Collections.nCopies(chunk.size(), "?")));
            inChunks(source, sql, chunk, IN_CHUNK, reader, rows::addAll);
        }
        return rows;
    }

    /**
     * Runs a query and hands {@code work} its rows {@code chunkSize} at a time, as the driver reads
     * them: the fetch size makes MariaDB Connector/J stream the result instead of buffering it, so
     * memory grows with the chunk, not with the result. A database error becomes a
     * {@link ReconciliationException} naming the query.
     *
     * @return the rows read
     */
    private static <T> int inChunks(AgroalDataSource source, String sql, List<?> parameters, int chunkSize,
            RowReader<T> reader, Consumer<List<T>> work) {
        try (Connection connection = source.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                Object value = parameters.get(i);
                statement.setObject(i + 1, value instanceof Instant instant ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC) : value);
            }
            statement.setFetchSize(chunkSize);
            int read = 0;
            try (ResultSet rows = statement.executeQuery()) {
                List<T> chunk = new ArrayList<>(chunkSize);
                while (rows.next()) {
                    read++;
                    chunk.add(reader.read(rows));
                    if (chunk.size() == chunkSize) {
                        work.accept(chunk);
                        chunk = new ArrayList<>(chunkSize);
                    }
                }
                if (!chunk.isEmpty()) {
                    work.accept(chunk);
                }
            }
            return read;
        } catch (SQLException e) {
            throw new ReconciliationException("Reconciliation query failed: " + sql, e);
        }
    }

    /** A UTC DATETIME column as an instant, or null. */
    private static Instant instant(ResultSet row, String column) throws SQLException {
        LocalDateTime value = row.getObject(column, LocalDateTime.class);
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }
}
