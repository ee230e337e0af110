package dev.orderflow.consumer;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Function;

import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.orderflow.sql.BatchSql;

/**
 * Entities of one table (a string primary key) that the current JTA transaction holds locked, for a
 * handler that changes them: in a batch of the pipeline the first use locks and loads the rows every
 * message of the batch names with one statement, keys in sorted order, so two batches consumed at the
 * same time take them one after the other, never crosswise. The changed entities are written by
 * Hibernate at the commit (one JDBC batch with {@code hibernate.order_updates}).
 *
 * @param <E> the entity
 */
public final class LockedEntities<E> {

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

    private final EntityManager entityManager;
    private final Table<E> table;
    private final Map<String, E> held = new HashMap<>();
    /** Keys looked for and not found: missing until this transaction ends. */
    private final Set<String> missing = new HashSet<>();

    private LockedEntities(EntityManager entityManager, Table<E> table) {
        this.entityManager = entityManager;
        this.table = table;
    }

    /** The entities of {@code table} the current transaction holds; the first call locks those of the batch. */
    public static <E> LockedEntities<E> of(TransactionSynchronizationRegistry transactions, EntityManager entityManager,
            Table<E> table) {
        @SuppressWarnings("unchecked")
        LockedEntities<E> locked = (LockedEntities<E>) transactions.getResource(table);
        if (locked != null) {
            return locked;
        }
        LockedEntities<E> created = new LockedEntities<>(entityManager, table);
        transactions.putResource(table, created);
        ConsumeBatch.current(transactions).ifPresent(batch -> {
            Set<String> keys = new TreeSet<>();
            batch.payloads().forEach(payload -> keys.addAll(table.keysOf().apply(payload)));
            created.lock(keys);
        });
        return created;
    }

    /** Locks and loads the rows of these keys this transaction does not hold yet, in key order. */
    public void lock(Collection<String> keys) {
        List<String> wanted = new TreeSet<>(keys).stream().filter(k -> !held.containsKey(k) && !missing.contains(k))
                .toList();
        if (wanted.isEmpty()) {
            return;
        }
        if (table.createMissing() != null) {
            table.createMissing().accept(entityManager, wanted);
        }
        // Native: JPA has no index hint (see BatchSql.PRIMARY_KEY_HINT: without it two batches can deadlock).
        @SuppressWarnings("unchecked")
        List<E> found = entityManager.createNativeQuery("select * from " + table.table() + BatchSql.PRIMARY_KEY_HINT + " where "
                + table.keyColumn() + " in (:keys) order by " + table.keyColumn() + " for update", table.type())
                .setParameter("keys", wanted)
                .getResultList();
        found.forEach(entity -> held.put(table.keyOf().apply(entity), entity));
        wanted.stream().filter(k -> !held.containsKey(k)).forEach(missing::add);
    }

    /** The locked entity of {@code key}, locking it first if needed; null when there is no such row. */
    public E entity(String key) {
        lock(List.of(key));
        return held.get(key);
    }
}
