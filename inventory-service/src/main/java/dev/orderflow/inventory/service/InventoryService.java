package dev.orderflow.inventory.service;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Query;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import dev.orderflow.consumer.BusinessFailure;
import dev.orderflow.consumer.ConsumeBatch;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.inventory.domain.Stock;
import dev.orderflow.inventory.domain.StockMovement;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderItem;

/**
 * Stock changes. {@link #deduct} and {@link #restore} run inside the consumer pipeline's
 * transaction (with the consume_record row and the result report), so each commits with its
 * record or not at all; {@link #setAvailable} is the REST API's own transaction.
 */
@ApplicationScoped
public class InventoryService {

    /** Transaction resource: the stock rows this transaction locked up front for its batch. */
    private static final Object BATCH_STOCK_LOCKED = InventoryService.class.getName() + ".batchStockLocked";
    /** Transaction resource: the batch's ledger rows, written in one statement when the batch ends. */
    private static final Object BATCH_MOVEMENTS = InventoryService.class.getName() + ".batchMovements";

    private final TransactionSynchronizationRegistry transactions;

    @Inject
    public InventoryService(TransactionSynchronizationRegistry transactions) {
        this.transactions = transactions;
    }

    /**
     * In a batch of the consumer pipeline, the first change locks the stock rows of every line of
     * every event in the batch at once, in SKU order. The later row lookups of the batch are then
     * served by the persistence context, and two batches consumed at the same time take their
     * stock rows in the same order (one after the other, never crosswise: no deadlock). Rows a
     * batch's payloads do not name are locked when first needed.
     */
    private void lockBatchStock() {
        if (transactions.getResource(BATCH_STOCK_LOCKED) != null) {
            return;
        }
        transactions.putResource(BATCH_STOCK_LOCKED, Boolean.TRUE);
        Set<String> skus = new TreeSet<>();
        ConsumeBatch.current(transactions).ifPresent(batch -> batch.payloads().forEach(payload -> {
            if (payload instanceof OrderEvent event) {
                event.items().forEach(item -> skus.add(item.sku()));
            }
        }));
        if (skus.size() > 1) {
            Stock.find("sku in ?1 order by sku", skus).withLock(LockModeType.PESSIMISTIC_WRITE).list();
        }
    }

    /**
     * Takes every line of a create or nothing. Rows are locked in SKU order, so two orders sharing
     * SKUs never deadlock; lines of one SKU are added up (the ledger has one DEDUCT per order and SKU).
     *
     * @return DONE when every line was deducted; REJECTED naming the first short SKU (nothing deducted)
     * @throws BusinessFailure when a SKU is unknown: the event can never apply (dead-lettered at once)
     */
    public Outcome deduct(OrderEvent create) {
        lockBatchStock();
        Map<String, Long> wanted = quantitiesBySku(create.items());
        List<Stock> locked = new ArrayList<>(wanted.size());
        for (Map.Entry<String, Long> line : wanted.entrySet()) {
            Stock stock = Stock.findById(line.getKey(), LockModeType.PESSIMISTIC_WRITE);
            if (stock == null) {
                throw new BusinessFailure("unknown SKU " + line.getKey() + " in order " + create.orderId());
            }
            locked.add(stock);
        }
        for (Stock stock : locked) {
            long quantity = wanted.get(stock.sku);
            if (stock.available < quantity) {
                return Outcome.rejected("insufficient stock for " + stock.sku + ": " + quantity + " requested, "
                        + stock.available + " available");
            }
        }
        Instant now = now();
        for (Stock stock : locked) {
            long quantity = wanted.get(stock.sku);
            stock.available -= quantity;
            stock.updatedAt = now;
            record(create.orderId(), stock.sku, StockMovement.Kind.DEDUCT, quantity, now);
        }
        return Outcome.done();
    }

    /**
     * Gives back exactly what the order's create deducted (its DEDUCT ledger rows), once: a SKU
     * with a RESTORE row already is skipped. A create that was rejected deducted nothing, so its
     * cancel restores nothing.
     */
    public Outcome restore(OrderEvent cancel) {
        lockBatchStock();
        Map<String, StockMovement> deducted = new TreeMap<>();
        movementsOf(cancel.orderId(), StockMovement.Kind.DEDUCT).forEach(m -> deducted.put(m.sku, m));
        List<String> restored = movementsOf(cancel.orderId(), StockMovement.Kind.RESTORE).stream()
                .map(m -> m.sku).toList();
        Instant now = now();
        for (StockMovement deduction : deducted.values()) {
            if (restored.contains(deduction.sku)) {
                continue;
            }
            Stock stock = Stock.findById(deduction.sku, LockModeType.PESSIMISTIC_WRITE);
            if (stock == null) {
                // The row was there when the units were deducted; only a manual delete removes it.
                throw new BusinessFailure("SKU " + deduction.sku + " of order " + cancel.orderId()
                        + " no longer exists; cannot restore " + deduction.quantity + " units");
            }
            stock.available += deduction.quantity;
            stock.updatedAt = now;
            record(cancel.orderId(), deduction.sku, StockMovement.Kind.RESTORE, deduction.quantity, now);
        }
        return Outcome.done();
    }

    /** Sets the units available for {@code sku}, creating the SKU if needed. */
    @Transactional
    public Stock setAvailable(String sku, long available) {
        Stock stock = Stock.findById(sku, LockModeType.PESSIMISTIC_WRITE);
        if (stock == null) {
            stock = new Stock();
            stock.sku = sku;
            stock.available = available;
            stock.updatedAt = now();
            stock.persist();
            return stock;
        }
        stock.available = available;
        stock.updatedAt = now();
        return stock;
    }

    @Transactional
    public Optional<Stock> find(String sku) {
        return Stock.findByIdOptional(sku);
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
        if (batch.isEmpty()) {
            movement.persist();
            return;
        }
        // In a batch: one multi-row INSERT at its end instead of one INSERT per row (the id is
        // generated by the table, so Hibernate could not batch them).
        @SuppressWarnings("unchecked")
        List<StockMovement> pending = (List<StockMovement>) transactions.getResource(BATCH_MOVEMENTS);
        if (pending == null) {
            List<StockMovement> rows = new ArrayList<>();
            transactions.putResource(BATCH_MOVEMENTS, rows);
            batch.get().onFinish(() -> insertAll(rows));
            pending = rows;
        }
        pending.add(movement);
    }

    /** The order's ledger rows of one kind: those committed (locking read) and those this batch has yet to write. */
    private List<StockMovement> movementsOf(String orderId, StockMovement.Kind kind) {
        List<StockMovement> movements = new ArrayList<>(StockMovement.ofOrder(orderId, kind));
        @SuppressWarnings("unchecked")
        List<StockMovement> pending = (List<StockMovement>) transactions.getResource(BATCH_MOVEMENTS);
        if (pending != null) {
            pending.stream().filter(m -> m.orderId.equals(orderId) && m.kind == kind).forEach(movements::add);
        }
        return movements;
    }

    private static void insertAll(List<StockMovement> rows) {
        if (rows.isEmpty()) {
            return;
        }
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            int p = i * 5;
            values.append(i == 0 ? "" : ", ").append("(?").append(p + 1).append(", ?").append(p + 2).append(", ?")
                    .append(p + 3).append(", ?").append(p + 4).append(", ?").append(p + 5).append(")");
        }
        Query insert = StockMovement.getEntityManager().createNativeQuery(
                "insert into stock_movement (order_id, sku, kind, quantity, created_at) values " + values);
        for (int i = 0; i < rows.size(); i++) {
            StockMovement row = rows.get(i);
            int p = i * 5;
            insert.setParameter(p + 1, row.orderId);
            insert.setParameter(p + 2, row.sku);
            insert.setParameter(p + 3, row.kind.name());
            insert.setParameter(p + 4, row.quantity);
            // UTC wall-clock, as Hibernate stores instants here (quarkus.hibernate-orm.jdbc.timezone=UTC).
            insert.setParameter(p + 5, LocalDateTime.ofInstant(row.createdAt, ZoneOffset.UTC));
        }
        insert.executeUpdate();
        rows.clear();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
