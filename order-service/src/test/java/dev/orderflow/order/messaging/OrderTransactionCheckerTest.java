package dev.orderflow.order.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.OrderDatabase;
import dev.orderflow.rocketmq.RocketMQTransactionChecker;
import dev.orderflow.rocketmq.TransactionCheck;
import io.smallrye.common.annotation.Identifier;
import dev.orderflow.rocketmq.TransactionResolution;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The check-back rules, answered from the real orders table (orderflow_order_test); the rollback
 * window is 5 s in the test profile.
 */
@QuarkusTest
class OrderTransactionCheckerTest {

    /** The checker the connector uses for the order-events channel (looked up by its identifier). */
    @Inject
    @Identifier("order-events")
    RocketMQTransactionChecker checker;

    static String insertOrder(String status) {
        String orderId = UUID.randomUUID().toString().replace("-", "").substring(0, 26).toUpperCase();
        OrderDatabase.execute("insert into orders (id, customer_id, phone, amount, status, created_at, updated_at)"
                + " values (?, 'C-CHECK', '+819012345678', 1.00, ?, utc_timestamp(3), utc_timestamp(3))", orderId, status);
        return orderId;
    }

    private TransactionResolution check(String key, long ageMillis) {
        return checker.check(new TransactionCheck("order-events", "order_service_tx", "order_topic",
                key == null ? null : key.substring(key.indexOf(':') + 1), key == null ? List.of() : List.of(key),
                Map.of(), new byte[0], System.currentTimeMillis() - ageMillis, "tx-" + UUID.randomUUID()));
    }

    @Test
    void createCommitsWhenTheRowExistsWhateverTheAge() {
        String orderId = insertOrder("CREATED");
        assertThat(check(orderId + ":create", 0)).isEqualTo(TransactionResolution.COMMIT);
        assertThat(check(orderId + ":create", 600_000)).isEqualTo(TransactionResolution.COMMIT);
    }

    @Test
    void createWithoutRowIsUnknownWhileYoungAndRolledBackWhenOld() {
        String orderId = "01NOROW" + UUID.randomUUID().toString().replace("-", "").substring(0, 19).toUpperCase();
        assertThat(check(orderId + ":create", 1_000)).isEqualTo(TransactionResolution.UNKNOWN);
        assertThat(check(orderId + ":create", 6_000)).isEqualTo(TransactionResolution.ROLLBACK);
    }

    @Test
    void cancelCommitsOnlyWhenTheOrderIsCancelled() {
        String cancelled = insertOrder("CANCELLED");
        String open = insertOrder("CREATED");
        assertThat(check(cancelled + ":cancel", 0)).isEqualTo(TransactionResolution.COMMIT);
        assertThat(check(open + ":cancel", 1_000)).isEqualTo(TransactionResolution.UNKNOWN);
        assertThat(check(open + ":cancel", 6_000)).isEqualTo(TransactionResolution.ROLLBACK);
    }

    @Test
    void failCommitsOnlyWhenTheOrderFailed() {
        String failed = insertOrder("FAILED");
        String open = insertOrder("CREATED");
        String cancelled = insertOrder("CANCELLED");
        assertThat(check(failed + ":fail", 0)).isEqualTo(TransactionResolution.COMMIT);
        assertThat(check(open + ":fail", 1_000)).isEqualTo(TransactionResolution.UNKNOWN);
        assertThat(check(open + ":fail", 6_000)).isEqualTo(TransactionResolution.ROLLBACK);
        assertThat(check(cancelled + ":fail", 6_000)).isEqualTo(TransactionResolution.ROLLBACK);
    }

    @Test
    void halfMessageWithoutAnOrderKeyIsRolledBackOnceOld() {
        assertThat(check(null, 1_000)).isEqualTo(TransactionResolution.UNKNOWN);
        assertThat(check(null, 6_000)).isEqualTo(TransactionResolution.ROLLBACK);
    }
}
