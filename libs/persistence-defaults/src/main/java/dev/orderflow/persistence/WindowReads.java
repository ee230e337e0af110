package dev.orderflow.persistence;

import java.time.Instant;
import java.util.List;

import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;

/**
 * Reads of the rows a table's {@code created_at} places in a window, for the ledgers reconciliation
 * reads: the same query over each consumer's effects table (an index on {@code created_at} serves it).
 */
public final class WindowReads {

    private WindowReads() {
    }

    /**
     * The distinct {@code orderId}s of {@code entity}'s rows created in [{@code from}, {@code to}),
     * ascending, greater than {@code after} when not null, at most {@code limit}. The entity maps
     * {@code orderId} and {@code createdAt}.
     */
    public static List<String> distinctOrderIds(EntityManager entityManager, Class<?> entity, Instant from, Instant to,
            String after, int limit) {
        TypedQuery<String> page = entityManager.createQuery("select distinct e.orderId from " + entity.getSimpleName()
                + " e where e.createdAt >= ?1 and e.createdAt < ?2" + (after == null ? "" : " and e.orderId > ?3")
                + " order by e.orderId", String.class)
                .setParameter(1, from).setParameter(2, to).setMaxResults(limit);
        if (after != null) {
            page.setParameter(3, after);
        }
        return page.getResultList();
    }
}
