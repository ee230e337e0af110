package dev.orderflow.consumer;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Rows of one table that the current transaction holds locked, for a handler that changes them in
 * memory: in a batch of the pipeline, the first use locks and loads the rows every message of the
 * batch names with one statement (keys in sorted order, so concurrent batches take them one after
 * the other, never crosswise), and the changed rows are written with one statement at the batch's
 * end ({@link ConsumeBatch#onFinish}). Outside a batch a change is written by
 * {@link #writeUnlessDeferred}. For Hibernate entities, {@link LockedEntities} does the locking part.
 *
 * @param <K> the row key
 * @param <R> the row, a plain object
 */
public final class LockedRows<K extends Comparable<K>, R> {

    /** Locks (SELECT … FOR UPDATE, or INSERT … ON DUPLICATE KEY) and loads the rows of these keys. */
    @FunctionalInterface
    public interface Loader<K, R> {
        /** @param keys sorted, not yet held; @return the rows that exist, by key */
        Map<K, R> lock(List<K> keys);
    }

    /** Writes changed rows (they exist and are locked by this transaction). */
    @FunctionalInterface
    public interface Writer<R> {
        void write(List<R> changed);
    }

    private final Loader<K, R> loader;
    private final Writer<R> writer;
    private final boolean deferWrites;
    private final Map<K, R> rows = new HashMap<>();
    /** Keys looked for and not found: missing until this transaction ends. */
    private final Set<K> missing = new HashSet<>();
    private final Map<K, R> changed = new LinkedHashMap<>();

    private LockedRows(Loader<K, R> loader, Writer<R> writer, boolean deferWrites) {
        this.loader = loader;
        this.writer = writer;
        this.deferWrites = deferWrites;
    }

    /**
     * The rows of this kind ({@code resourceKey}) held by the current transaction; created on first
     * use, then locking the rows {@code keysOf} finds in the batch's payloads.
     */
    public static <K extends Comparable<K>, R> LockedRows<K, R> of(TransactionSynchronizationRegistry transactions,
            Object resourceKey, Function<Object, Collection<K>> keysOf, Loader<K, R> loader, Writer<R> writer) {
        @SuppressWarnings("unchecked")
        LockedRows<K, R> held = (LockedRows<K, R>) transactions.getResource(resourceKey);
        if (held != null) {
            return held;
        }
        Optional<ConsumeBatch> batch = ConsumeBatch.current(transactions);
        LockedRows<K, R> rows = new LockedRows<>(loader, writer, batch.isPresent());
        transactions.putResource(resourceKey, rows);
        if (batch.isPresent()) {
            batch.get().onFinish(rows::write);
            Set<K> keys = new TreeSet<>();
            batch.get().payloads().forEach(payload -> keys.addAll(keysOf.apply(payload)));
            rows.lock(keys);
        }
        return rows;
    }

    /** Locks and loads the rows of these keys this transaction does not hold yet, in key order. */
    public void lock(Collection<K> keys) {
        List<K> wanted = new TreeSet<>(keys).stream().filter(k -> !rows.containsKey(k) && !missing.contains(k)).toList();
        if (wanted.isEmpty()) {
            return;
        }
        Map<K, R> found = loader.lock(wanted);
        rows.putAll(found);
        wanted.stream().filter(k -> !found.containsKey(k)).forEach(missing::add);
    }

    /** The locked row of {@code key}, locking it first if needed; null when there is no such row. */
    public R row(K key) {
        lock(List.of(key));
        return rows.get(key);
    }

    /** Marks the row of {@code key} changed: it is written at the batch's end. */
    public void changed(K key) {
        R row = rows.get(key);
        if (row == null) {
            throw new IllegalStateException("row " + key + " is not held by this transaction");
        }
        changed.put(key, row);
    }

    /** Outside a batch, writes the changes now; in a batch they wait for its end. */
    public void writeUnlessDeferred() {
        if (!deferWrites) {
            write();
        }
    }

    private void write() {
        if (changed.isEmpty()) {
            return;
        }
        writer.write(List.copyOf(changed.values()));
        changed.clear();
    }
}
