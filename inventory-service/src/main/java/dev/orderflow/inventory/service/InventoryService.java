package dev.orderflow.inventory.service;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import javax.sql.DataSource;

import dev.orderflow.consumer.BusinessFailure;
import dev.orderflow.consumer.ConsumeBatch;
import dev.orderflow.consumer.CounterRows;
import dev.orderflow.consumer.LockedRows;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.inventory.domain.Stock;
import dev.orderflow.inventory.domain.StockMovement;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.sql.BatchSql;

/**
 * Stock changes. {@link #deduct} and {@link #restore} run inside the consumer pipeline's
 * transaction (with the consume_record row and the result report), so each commits with its
 * record or not at all; {@link #setAvailable} is one statement of the REST API's.
 */
@ApplicationScoped
public class InventoryService {

    private static final CounterRows.Table STOCK_TABLE = new CounterRows.Table("stock", "sku", "available", false);

    private final TransactionSynchronizationRegistry transactions;
    private final DataSource dataSource;

    @Inject
    public InventoryService(TransactionSynchronizationRegistry transactions, DataSource dataSource) {
        this.transactions = transactions;
        this.dataSource = dataSource;
    }

    /**
     * Takes every line of a create or nothing. Rows are locked in SKU order, so two orders sharing
     * SKUs never deadlock; lines of one SKU are added up (the ledger has one DEDUCT per order and SKU).
     *
     * @return DONE when every line was deducted; REJECTED naming the first short SKU (nothing deducted)
     * @throws BusinessFailure when a SKU is unknown: the event can never apply (dead-lettered at once)
     */
    public Outcome deduct(OrderEvent create) {
        LockedRows<String, CounterRows.Row> stock = lockedStock();
        Map<String, Long> wanted = quantitiesBySku(create.items());
        stock.lock(wanted.keySet());
        List<CounterRows.Row> rows = new ArrayList<>(wanted.size());
        for (String sku : wanted.keySet()) {
            CounterRows.Row row = stock.row(sku);
            if (row == null) {
                throw new BusinessFailure("unknown SKU " + sku + " in order " + create.orderId());
            }
            rows.add(row);
        }
        for (CounterRows.Row row : rows) {
            long quantity = wanted.get(row.key());
            if (row.value() < quantity) {
                return Outcome.rejected("insufficient stock for " + row.key() + ": " + quantity + " requested, "
                        + row.value() + " available");
            }
        }
        Instant now = now();
        for (CounterRows.Row row : rows) {
            long quantity = wanted.get(row.key());
            CounterRows.add(stock, row, -quantity, now);
            record(create.orderId(), row.key(), StockMovement.Kind.DEDUCT, quantity, now);
        }
        stock.writeUnlessDeferred();
        return Outcome.done();
    }

    /**
     * Gives back exactly what the order's create deducted (its DEDUCT ledger rows), once: a SKU
     * with a RESTORE row already is skipped. A create that was rejected deducted nothing, so its
     * cancel restores nothing.
     */
    public Outcome restore(OrderEvent cancel) {
        LockedRows<String, CounterRows.Row> stock = lockedStock();
        Map<String, StockMovement> deducted = new TreeMap<>();
        movementsOf(cancel.orderId(), StockMovement.Kind.DEDUCT).forEach(m -> deducted.put(m.sku, m));
        List<String> restored = movementsOf(cancel.orderId(), StockMovement.Kind.RESTORE).stream()
                .map(m -> m.sku).toList();
        stock.lock(deducted.keySet());
        Instant now = now();
        for (StockMovement deduction : deducted.values()) {
            if (restored.contains(deduction.sku)) {
                continue;
            }
            CounterRows.Row row = stock.row(deduction.sku);
            if (row == null) {
                // The row was there when the units were deducted; only a manual delete removes it.
                throw new BusinessFailure("SKU " + deduction.sku + " of order " + cancel.orderId()
                        + " no longer exists; cannot restore " + deduction.quantity + " units");
            }
            CounterRows.add(stock, row, deduction.quantity, now);
            record(cancel.orderId(), deduction.sku, StockMovement.Kind.RESTORE, deduction.quantity, now);
        }
        stock.writeUnlessDeferred();
        return Outcome.done();
    }

    /**
     * The stock rows the current transaction holds locked, read and written with plain JDBC. In a
     * batch of the consumer pipeline the first call locks the rows of every line of every event in
     * the batch at once, in SKU order, and the batch's changes are written in one statement at its
     * end: two batches consumed at the same time take their rows one after the other, never
     * crosswise (no deadlock).
     */
    private LockedRows<String, CounterRows.Row> lockedStock() {
        return CounterRows.of(transactions, dataSource, STOCK_TABLE,
                payload -> payload instanceof OrderEvent event ? event.items().stream().map(OrderItem::sku).toList()
                        : List.of());
    }

    /** Sets the units available for {@code sku}, creating the SKU if needed (one upsert, auto-commit). */
    public Stock setAvailable(String sku, long available) {
        Stock stock = new Stock(sku, available, now());
        BatchSql.upsert(dataSource, STOCK_TABLE.name(), List.of("sku", "available", "updated_at"),
                List.of(List.of(stock.sku(), stock.available(), stock.updatedAt())), List.of("sku"));
        return stock;
    }

    /** The committed stock of {@code sku}. */
    public Optional<Stock> find(String sku) {
        return BatchSql.select(dataSource, "select sku, available, updated_at from stock where sku = ?", List.of(sku),
                row -> new Stock(row.getString("sku"), row.getLong("available"), BatchSql.instant(row, "updated_at")))
                .stream().findFirst();
    }

    private static Map<String, Long> quantitiesBySku(List<OrderItem> items) {
        Map<String, Long> bySku = new TreeMap<>();
        items.forEach(item -> bySku.merge(item.sku(), (long) item.quantity(), Long::sum));
        return bySku;
    }

    private void record(String orderId, String sku, StockMovement.Kind kind, long quantity, Instant at) {
        StockMovement movement = new StockMovement();
        movement.orderId = orderId;
        movement.sku = sku;
        movement.kind = kind;
        movement.quantity = quantity;
        movement.createdAt = at;
        Optional<ConsumeBatch> batch = ConsumeBatch.current(transactions);
        if (batch.isPresent()) {
            // One multi-row INSERT at the batch's end instead of one INSERT per row.
            pendingMovements(batch.get()).add(movement);
        } else {
            StockMovement.insert(dataSource, List.of(movement));
        }
    }

    /** The order's ledger rows of one kind: those committed (locking read) and those this batch has yet to write. */
    private List<StockMovement> movementsOf(String orderId, StockMovement.Kind kind) {
        List<StockMovement> movements = new ArrayList<>(StockMovement.ofOrder(dataSource, orderId, kind));
        ConsumeBatch.current(transactions).ifPresent(batch -> pendingMovements(batch).stream()
                .filter(m -> m.orderId.equals(orderId) && m.kind == kind).forEach(movements::add));
        return movements;
    }

    private List<StockMovement> pendingMovements(ConsumeBatch batch) {
        return batch.deferredRows(StockMovement.class, rows -> StockMovement.insert(dataSource, rows));
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
