package dev.orderflow.inventory.domain;

import java.time.Instant;
import java.util.List;

import javax.sql.DataSource;

import dev.orderflow.sql.BatchSql;

/**
 * One line of the ledger ({@code stock_movement}, unique per order, SKU and kind): what an order
 * deducted from or restored to one SKU.
 */
public class StockMovement {

    public enum Kind {
        /** Units taken by the order's create. */
        DEDUCT,
        /** Units given back by the order's cancel: exactly the DEDUCT quantity. */
        RESTORE
    }

    public String orderId;
    public String sku;
    public Kind kind;
    public long quantity;
    public Instant createdAt;

    /** Inserts {@code movements} with one statement, in the caller's transaction. */
    public static void insert(DataSource dataSource, List<StockMovement> movements) {
        BatchSql.insert(dataSource, "stock_movement", List.of("order_id", "sku", "kind", "quantity", "created_at"),
                movements.stream().<List<?>> map(m -> List.of(m.orderId, m.sku, m.kind, m.quantity, m.createdAt))
                        .toList());
    }

    /**
     * The order's movements of one kind, read with a lock: a locking read sees the latest committed
     * rows, also when this transaction's snapshot predates the commit of the order's create (a
     * create and cancel consumed at the same time, serialized by CancelBeforeCreateGuard).
     */
    public static List<StockMovement> ofOrder(DataSource dataSource, String orderId, Kind kind) {
        return BatchSql.select(dataSource, "select order_id, sku, kind, quantity, created_at from stock_movement"
                + " where order_id = ? and kind = ? order by sku for update", List.of(orderId, kind), row -> {
                    StockMovement movement = new StockMovement();
                    movement.orderId = row.getString("order_id");
                    movement.sku = row.getString("sku");
                    movement.kind = Kind.valueOf(row.getString("kind"));
                    movement.quantity = row.getLong("quantity");
                    movement.createdAt = BatchSql.instant(row, "created_at");
                    return movement;
                });
    }
}
