package dev.orderflow.order.service;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.orderflow.ledger.LedgerOrder;
import dev.orderflow.order.domain.Order;
import dev.orderflow.order.domain.OrderStatus;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Sort;

/**
 * The orders as status-service's reconciliation reads them ({@code OrderLedgerApi}). Read-only; like
 * {@link OrderService}'s reads it runs outside any transaction (committed rows only): an order's
 * lines are written in the transaction that writes the order and never change, so the lines read
 * after a page of orders are those orders' lines.
 */
@ApplicationScoped
public class OrderLedger {

    /**
     * Creation time, then id: the keyset of a page. ix_orders_created_at serves it without a sort:
     * InnoDB appends the primary key to every secondary index, so its entries are in (created_at, id) order.
     */
    private static final Sort BY_CREATION = Sort.by("createdAt", "id");

    /** Where a page ends: the last order's creation time and id. */
    public record Position(Instant createdAt, String id) {
    }

    /** The columns of an order the ledger reports; its lines come from one query per page. */
    public record OrderHead(String id, BigDecimal amount, OrderStatus status, Instant createdAt, Instant updatedAt) {
    }

    /** Units of one SKU over one order's lines. */
    public record SkuUnits(String orderId, String sku, Long units) {
    }

    /**
     * Up to {@code limit} orders created in [{@code from}, {@code to}), by creation time then id,
     * after {@code after} (null: from the first).
     */
    public List<LedgerOrder> page(Instant from, Instant to, Position after, int limit) {
        PanacheQuery<Order> query = after == null
                ? Order.find("createdAt >= ?1 and createdAt < ?2", BY_CREATION, from, to)
                : Order.find("createdAt >= ?1 and createdAt < ?2 and (createdAt > ?3 or (createdAt = ?3 and id > ?4))",
                        BY_CREATION, from, to, after.createdAt(), after.id());
        List<OrderHead> heads = query.project(OrderHead.class).range(0, limit - 1).list();
        if (heads.isEmpty()) {
            return List.of();
        }
        Map<String, Map<String, Long>> skus = skusOf(heads.stream().map(OrderHead::id).toList());
        return heads.stream().map(head -> new LedgerOrder(head.id(), head.amount(), head.status().name(),
                head.createdAt(), head.updatedAt(), skus.getOrDefault(head.id(), Map.of()))).toList();
    }

    /** Which of {@code orderIds} are orders, each once, in the order asked. */
    public List<String> existing(List<String> orderIds) {
        Set<String> asked = new HashSet<>(orderIds);
        Set<String> found = new HashSet<>(Order.getEntityManager()
                .createQuery("select o.id from Order o where o.id in ?1", String.class)
                .setParameter(1, asked)
                .getResultList());
        // Exact ids only: the column's collation ignores case, the ids a caller holds do not.
        return orderIds.stream().distinct().filter(found::contains).toList();
    }

    /** Units per SKU of each of {@code orderIds}, lines of one SKU added up (as inventory deducts them). */
    private static Map<String, Map<String, Long>> skusOf(List<String> orderIds) {
        List<SkuUnits> rows = Order.getEntityManager()
                .createQuery("select o.id, l.sku, sum(l.quantity) from Order o join o.items l where o.id in ?1"
                        + " group by o.id, l.sku", SkuUnits.class)
                .setParameter(1, orderIds)
                .getResultList();
        Map<String, Map<String, Long>> skus = new HashMap<>();
        for (SkuUnits row : rows) {
            skus.computeIfAbsent(row.orderId(), id -> new TreeMap<>()).put(row.sku(), row.units());
        }
        return skus;
    }
}
