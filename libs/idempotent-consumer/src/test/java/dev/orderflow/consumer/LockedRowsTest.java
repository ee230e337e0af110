package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.junit.jupiter.api.Test;

/** What {@link LockedRows} locks, when, and when it writes: one statement each per batch. */
class LockedRowsTest {

    /** A row: a key and a counter the handler changes. */
    static final class Row {
        final String key;
        int value;

        Row(String key, int value) {
            this.key = key;
            this.value = value;
        }
    }

    private final Transaction transaction = new Transaction();
    private final Map<String, Row> table = new HashMap<>(Map.of("a", new Row("a", 1), "b", new Row("b", 2),
            "c", new Row("c", 3)));
    private final List<List<String>> lockStatements = new ArrayList<>();
    private final List<Map<String, Integer>> writeStatements = new ArrayList<>();

    private LockedRows<String, Row> rows() {
        return LockedRows.of(transaction, Row.class, payload -> List.of(((String) payload).split(",")),
                keys -> {
                    lockStatements.add(keys);
                    Map<String, Row> found = new HashMap<>();
                    keys.stream().filter(table::containsKey).forEach(k -> found.put(k, new Row(k, table.get(k).value)));
                    return found;
                },
                changed -> {
                    Map<String, Integer> written = new HashMap<>();
                    changed.forEach(row -> written.put(row.key, row.value));
                    writeStatements.add(written);
                });
    }

    @Test
    void aBatchLocksEveryNamedRowInOneSortedStatementAndWritesItsChangesOnceAtTheEnd() throws Exception {
        ConsumeBatch batch = ConsumeBatch.begin(transaction, List.of("c,a", "b,a", "x"));

        LockedRows<String, Row> first = rows();
        first.row("a").value += 10;
        first.changed("a");
        first.writeUnlessDeferred();
        LockedRows<String, Row> second = rows();
        second.row("c").value += 5;
        second.changed("c");
        second.row("a").value += 1;
        second.changed("a");
        second.writeUnlessDeferred();

        assertThat(second).isSameAs(first);
        assertThat(lockStatements).containsExactly(List.of("a", "b", "c", "x"));
        assertThat(first.row("x")).isNull();
        assertThat(lockStatements).hasSize(1);
        assertThat(writeStatements).isEmpty();

        batch.finish();

        assertThat(writeStatements).containsExactly(Map.of("a", 12, "c", 8));
    }

    @Test
    void aRowTheBatchDidNotNameIsLockedWhenFirstAskedFor() {
        ConsumeBatch.begin(transaction, List.of("a"));

        LockedRows<String, Row> rows = rows();
        assertThat(rows.row("b").value).isEqualTo(2);
        assertThat(rows.row("b").value).isEqualTo(2);

        assertThat(lockStatements).containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void outsideABatchAChangeIsWrittenAtOnce() {
        LockedRows<String, Row> rows = rows();
        rows.row("b").value = 7;
        rows.changed("b");
        rows.writeUnlessDeferred();
        rows.writeUnlessDeferred();

        assertThat(writeStatements).containsExactly(Map.of("b", 7));
    }

    @Test
    void onlyAHeldRowCanBeMarkedChanged() {
        LockedRows<String, Row> rows = rows();
        assertThatThrownBy(() -> rows.changed("a")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("row a is not held");
    }

    /** The resources of one transaction, as the JTA registry keeps them. */
    private static final class Transaction implements TransactionSynchronizationRegistry {
        private final Map<Object, Object> resources = new HashMap<>();

        @Override
        public Object getTransactionKey() {
            return this;
        }

        @Override
        public void putResource(Object key, Object value) {
            resources.put(key, value);
        }

        @Override
        public Object getResource(Object key) {
            return resources.get(key);
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int getTransactionStatus() {
            return jakarta.transaction.Status.STATUS_ACTIVE;
        }

        @Override
        public void setRollbackOnly() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean getRollbackOnly() {
            return false;
        }
    }
}
