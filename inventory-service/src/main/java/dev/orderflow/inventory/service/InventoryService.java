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
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.orderflow.consumer.BusinessFailure;
import dev.orderflow.consumer.LockedEntities;
import dev.orderflow.consumer.LockedRows;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.inventory.domain.Stock;
import dev.orderflow.inventory.domain.StockMovement;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderItem;

/**
 * Stock changes. {@link #deduct} and {@link #restore} run inside the consumer pipeline's JTA
 * transaction (with the consume_record row and the result report), so each commits with its record or
 * not at all; Hibernate writes the changed stock rows and the new movements at the commit, each kind as
 * one JDBC batch. {@link #setAvailable} is one upsert of the REST API's.
 */
@ApplicationScoped
public class InventoryService {

    /** Stock rows are never created by an order: an unknown SKU stays missing. */
    private static final LockedEntities.Table<Stock> STOCK = new LockedEntities.Table<>(Stock.class, "stock", "sku",
            stock -> stock.sku,
            payload -> payload instanceof OrderEvent event ? event.items().stream().map(OrderItem::sku).toList() : List.of(),
            null);

    private final TransactionSynchronizationRegistry transactions;
    private final EntityManager entityManager;

    @Inject
    public InventoryService(TransactionSynchronizationRegistry transactions, EntityManager entityManager) {
        this.transactions = transactions;
        this.entityManager = entityManager;
    }

    /**
     * Takes every line of a create or nothing. Rows are locked in SKU order, so two orders sharing
     * SKUs never deadlock; lines of one SKU are added up (the ledger has one DEDUCT per order and SKU).
     *
     * @return DONE when every line was deducted; REJECTED naming the first short SKU (nothing deducted)
     * @throws BusinessFailure when a SKU is unknown: the event can never apply (dead-lettered at once)
     */
    public Outcome deduct(OrderEvent create) {
        LockedRows<String, Stock> stock = lockedStock();
        Map<String, Long> wanted = quantitiesBySku(create.items());
        stock.lock(wanted.keySet());
        List<Stock> rows = new ArrayList<>(wanted.size());
        for (String sku : wanted.keySet()) {
            Stock row = stock.row(sku);
            if (row == null) {
                throw new BusinessFailure("unknown SKU " + sku + " in order " + create.orderId());
            }
            rows.add(row);
        }
        for (Stock row : rows) {
            long quantity = wanted.get(row.sku);
            if (row.available < quantity) {
                return Outcome.rejected("insufficient stock for " + row.sku + ": " + quantity + " requested, "
                        + row.available + " available");
            }
        }
        Instant now = now();
        for (Stock row : rows) {
            long quantity = wanted.get(row.sku);
            row.add(-quantity, now);
            record(create.orderId(), row.sku, StockMovement.Kind.DEDUCT, quantity, now);
        }
        return Outcome.done();
    }

    /**
     * Gives back exactly what the order's create deducted (its DEDUCT ledger rows), once: a SKU
     * with a RESTORE row already is skipped. A create that was rejected deducted nothing, so its
     * cancel restores nothing.
     */
    public Outcome restore(OrderEvent cancel) {
        LockedRows<String, Stock> stock = lockedStock();
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
            Stock row = stock.row(deduction.sku);
            if (row == null) {
                // The row was there when the units were deducted; only a manual delete removes it.
                throw new BusinessFailure("SKU " + deduction.sku + " of order " + cancel.orderId()
                        + " no longer exists; cannot restore " + deduction.quantity + " units");
            }
            row.add(deduction.quantity, now);
            record(cancel.orderId(), deduction.sku, StockMovement.Kind.RESTORE, deduction.quantity, now);
        }
        return Outcome.done();
    }

    /**
     * The stock rows the current transaction holds locked: in a batch of the consumer pipeline the
     * first call locks the rows of every line of every event in the batch at once, in SKU order (see
     * {@link LockedEntities}).
     */
    private LockedRows<String, Stock> lockedStock() {
        return LockedEntities.of(transactions, entityManager, STOCK);
    }

    /** Sets the units available for {@code sku}, creating the SKU if needed. */
    @Transactional
    public Stock setAvailable(String sku, long available) {
        Instant now = now();
        // Native: JPA has no upsert, and a find-then-persist of a new SKU races with another PUT of it.
        entityManager.createNativeQuery("insert into stock (sku, available, updated_at) values (?1, ?2, ?3)"
                + " on duplicate key update available = values(available), updated_at = values(updated_at)")
                .setParameter(1, sku).setParameter(2, available).setParameter(3, now)
                .executeUpdate();
        Stock stock = new Stock();
        stock.sku = sku;
        stock.available = available;
        stock.updatedAt = now;
        return stock;
    }

    /** The committed stock of {@code sku}. */
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
        entityManager.persist(movement);
    }

    /**
     * The order's movements of one kind, read with a lock: a locking read sees the latest committed
     * rows, also when this transaction's snapshot predates the commit of the order's create (a create
     * and cancel consumed at the same time, serialized by CancelBeforeCreateGuard). The query first
     * flushes the movements this transaction wrote, so it finds those too.
     */
    private List<StockMovement> movementsOf(String orderId, StockMovement.Kind kind) {
        return StockMovement.<StockMovement> find("orderId = ?1 and kind = ?2 order by sku", orderId, kind)
                .withLock(LockModeType.PESSIMISTIC_WRITE).list();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
