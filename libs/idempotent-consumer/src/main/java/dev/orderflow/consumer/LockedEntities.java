package dev.orderflow.consumer;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.orderflow.persistence.NativeSql;

/**
 * {@link LockedRows} whose rows are Hibernate entities of one table (a string primary key): in a batch
 * of the pipeline the first use locks and loads the rows every message of the batch names with one
 * statement, keys in sorted order, so two batches consumed at the same time take them one after the
 * other, never crosswise. The entities are managed: Hibernate writes the changed ones at the commit
 * (one JDBC batch with {@code hibernate.order_updates}), so nothing is marked changed.
 */
public final class LockedEntities {

    /**
     * A table whose rows handlers lock. Use one constant per table: it is also the key of the
     * transaction's resource.
     *
     * @param type          the entity
     * @param table         its table
     * @param keyColumn     its primary key column
     * @param keyOf         an entity's key
     * @param keysOf        the keys a batch's payload names
     * @param createMissing null (a missing row stays missing), or creates the missing rows of the given
     *                      sorted keys, which also locks them (an {@code INSERT … ON DUPLICATE KEY}
     *                      through the entity manager)
     */
    public record Table<E>(Class<E> type, String table, String keyColumn, Function<E, String> keyOf,
            Function<Object, Collection<String>> keysOf, BiConsumer<EntityManager, List<String>> createMissing) {
    }

    private LockedEntities() {
    }

    /** The entities of {@code table} the current transaction holds; the first call locks those of the batch. */
    public static <E> LockedRows<String, E> of(TransactionSynchronizationRegistry transactions,
            EntityManager entityManager, Table<E> table) {
        return LockedRows.of(transactions, table, table.keysOf(), keys -> lock(entityManager, table, keys),
                changed -> {
                });
    }

    /** Creates the missing rows if the table wants that, then locks and loads the rows of {@code keys} (sorted). */
    private static <E> Map<String, E> lock(EntityManager entityManager, Table<E> table, List<String> keys) {
        if (table.createMissing() != null) {
            table.createMissing().accept(entityManager, keys);
        }
        // Native: JPA has no index hint (see NativeSql.PRIMARY_KEY_HINT: without it two batches can deadlock).
        @SuppressWarnings("unchecked")
        List<E> found = entityManager.createNativeQuery("select * from " + table.table() + NativeSql.PRIMARY_KEY_HINT
                + " where " + table.keyColumn() + " in (:keys) order by " + table.keyColumn() + " for update", table.type())
                .setParameter("keys", keys)
                .getResultList();
        Map<String, E> byKey = new HashMap<>();
        found.forEach(entity -> byKey.put(table.keyOf().apply(entity), entity));
        return byKey;
    }
}
