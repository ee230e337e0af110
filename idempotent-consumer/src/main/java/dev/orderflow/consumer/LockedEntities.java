package dev.orderflow.consumer;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * {@link LockedRows} whose rows are Hibernate entities of one table (a string key): in a batch
 * of the pipeline the first use locks and loads the rows every message of the batch names with one
 * statement, keys in sorted order, so two batches consumed at the same time take them one after the
 * other, never crosswise. The entities are managed: Hibernate writes the changed ones at the commit
 * (one JDBC batch with {@code hibernate.order_updates}), so nothing is marked changed.
 */
public final class LockedEntities {

    /**
     * Index hint for a locking read of rows by their primary key: {@code "select … from t" +
     * PRIMARY_KEY_HINT + " where key in (…) for update"}. While a table is small (a new deployment's
     * first few hundred rows) MariaDB reads a long IN list by scanning the whole table, and a locking
     * read that scans waits for every row another transaction holds, named or not: two batches then
     * deadlock, each holding rows the other's scan reached. With the hint the read locks the rows it
     * names and no others, whatever the table's size.
     */
    public static final String PRIMARY_KEY_HINT = " force index (primary)";

    /**
     * A table whose rows handlers lock. Use one constant per table (or per scope): it is also the key
     * of the transaction's resource.
     *
     * @param type          the entity
     * @param table         its table
     * @param keyColumn     the column of the key the payloads name (the primary key, or its last column)
     * @param keyOf         an entity's key
     * @param keysOf        the keys a batch's payload names
     * @param createMissing null (a missing row stays missing), or creates the missing rows of the given
     *                      sorted keys, which also locks them (an {@code INSERT … ON DUPLICATE KEY}
     *                      through the entity manager)
     * @param scopeColumn   null, or the first column of a two-column primary key, fixed to {@code scope}
     * @param scope         the value of {@code scopeColumn} every locked row has
     */
    public record Table<E>(Class<E> type, String table, String keyColumn, Function<E, String> keyOf,
            Function<Object, Collection<String>> keysOf, BiConsumer<EntityManager, List<String>> createMissing,
            String scopeColumn, Object scope) {

        /** A table whose primary key is {@code keyColumn} alone. */
        public Table(Class<E> type, String table, String keyColumn, Function<E, String> keyOf,
                Function<Object, Collection<String>> keysOf, BiConsumer<EntityManager, List<String>> createMissing) {
            this(type, table, keyColumn, keyOf, keysOf, createMissing, null, null);
        }
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
        // Native: JPA has no index hint (without it two batches can deadlock, see PRIMARY_KEY_HINT).
        String scope = table.scopeColumn() == null ? "" : table.scopeColumn() + " = :scope and ";
        Query query = entityManager.createNativeQuery("select * from " + table.table() + PRIMARY_KEY_HINT + " where "
                + scope + table.keyColumn() + " in (:keys) order by " + table.keyColumn() + " for update", table.type())
                .setParameter("keys", keys);
        if (table.scopeColumn() != null) {
            query.setParameter("scope", table.scope());
        }
        @SuppressWarnings("unchecked")
        List<E> found = query.getResultList();
        Map<String, E> byKey = new HashMap<>();
        found.forEach(entity -> byKey.put(table.keyOf().apply(entity), entity));
        return byKey;
    }
}
