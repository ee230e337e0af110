package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.rocketmq.RocketMQBatchFailure;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The guard inside the pipeline's batches, against the real MariaDB: the batch's progress rows are
 * locked together and written at its end, and the outcome is the same as one message at a time.
 */
@QuarkusTest
class CancelBeforeCreateGuardTest {

    @Inject
    IdempotentConsumer consumer;

    @Inject
    CancelBeforeCreateGuard guard;

    @Inject
    TestEffects effects;

    private static OrderEvent event(OrderEventType type, String orderId) {
        return OrderEvent.of(type, orderId, "C-1", "+819012345678",
                List.of(new OrderItem("SKU-1", 1, new BigDecimal("3.00"))), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /** Applies the batch with a guarded effect; an order id starting with "FAIL" fails its create with a business failure. */
    private Deliveries.Delivered consumeBatch(List<OrderEvent> events) {
        return consumeBatch(events, Deliveries.GROUP);
    }

    private Deliveries.Delivered consumeBatch(List<OrderEvent> events, String group) {
        Deliveries.Delivered delivered = Deliveries.deliverBatch(events.stream().map(OrderEventJson::toJson).toList(),
                events.stream().map(OrderEvent::messageKey).toList(), group);
        consumer.consume(delivered.batch, OrderEventParser::parse, OrderEvent::messageKey,
                (event, context) -> guard.apply(event, context, () -> {
                    effects.apply(context.messageKey());
                    if (event.orderId().startsWith("FAIL")) {
                        throw new BusinessFailure("no such SKU");
                    }
                    return Outcome.done();
                })).toCompletableFuture().join();
        return delivered;
    }

    private static String progress(String orderId) {
        return progress(Deliveries.GROUP, orderId);
    }

    private static String progress(String group, String orderId) {
        List<Map<String, Object>> rows = Database.rows(
                "select state from order_event_progress where consumer_group = ? and order_id = ?", group, orderId);
        return rows.isEmpty() ? null : (String) rows.get(0).get("state");
    }

    private static Map<String, Object> record(String key) {
        return Database.rows("select outcome, outcome_reason from consume_record where consumer_group = ? and message_key = ?",
                Deliveries.GROUP, key).get(0);
    }

    @Test
    void createAndCancelOfOneOrderInOneBatchApplyBothInArrivalOrder() {
        String created = "O-" + UUID.randomUUID();
        String cancelledBeforeCreate = "O-" + UUID.randomUUID();
        String createdOnly = "O-" + UUID.randomUUID();
        OrderEvent create = event(OrderEventType.CREATE, created);
        OrderEvent cancel = event(OrderEventType.CANCEL, created);
        OrderEvent earlyCancel = event(OrderEventType.CANCEL, cancelledBeforeCreate);
        OrderEvent lateCreate = event(OrderEventType.CREATE, cancelledBeforeCreate);
        OrderEvent plainCreate = event(OrderEventType.CREATE, createdOnly);

        Deliveries.Delivered delivered = consumeBatch(List.of(create, earlyCancel, plainCreate, cancel, lateCreate));

        assertThat(delivered.acks).hasValue(1);
        assertThat(progress(created)).isEqualTo("CANCELLED");
        assertThat(Database.effects(create.messageKey())).isEqualTo(1);
        assertThat(Database.effects(cancel.messageKey())).as("the cancel reversed the create").isEqualTo(1);
        assertThat(progress(cancelledBeforeCreate)).isEqualTo("CANCELLED_BEFORE_CREATE");
        assertThat(Database.effects(earlyCancel.messageKey())).as("nothing to reverse").isZero();
        assertThat(Database.effects(lateCreate.messageKey())).as("a create after its cancel applies nothing").isZero();
        assertThat(record(earlyCancel.messageKey())).containsEntry("outcome", "DONE");
        assertThat(record(lateCreate.messageKey())).containsEntry("outcome", "REJECTED")
                .containsEntry("outcome_reason", CancelBeforeCreateGuard.CANCELLED_BEFORE_CREATE);
        assertThat(progress(createdOnly)).isEqualTo("CREATED");
        assertThat(record(plainCreate.messageKey())).containsEntry("outcome", "DONE");
    }

    private static OrderEvent fail(String orderId) {
        return OrderEvent.failed(orderId, "C-1", "+819012345678", List.of(new OrderItem("SKU-1", 1, new BigDecimal("3.00"))),
                new OrderFailure("inventory", "business", "insufficient stock"), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    @Test
    void aFailAfterItsCreateCompensatesOnceAndAFailBeforeItsCreateBlocksTheLateCreate() {
        String createdFirst = "O-" + UUID.randomUUID();
        String failedFirst = "O-" + UUID.randomUUID();
        OrderEvent create = event(OrderEventType.CREATE, createdFirst);
        OrderEvent fail = fail(createdFirst);
        OrderEvent earlyFail = fail(failedFirst);
        OrderEvent lateCreate = event(OrderEventType.CREATE, failedFirst);

        consumeBatch(List.of(create, earlyFail));
        Deliveries.Delivered later = consumeBatch(List.of(fail, lateCreate));
        consumeBatch(List.of(fail));

        assertThat(later.acks).hasValue(1);
        assertThat(progress(createdFirst)).isEqualTo("FAILED");
        assertThat(Database.effects(create.messageKey())).isEqualTo(1);
        assertThat(Database.effects(fail.messageKey())).as("compensated once, the duplicate skipped").isEqualTo(1);
        assertThat(record(fail.messageKey())).containsEntry("outcome", "DONE");
        // The compensation runs before the create too (undoing nothing; a text is still due), then blocks it.
        assertThat(progress(failedFirst)).isEqualTo("FAILED_BEFORE_CREATE");
        assertThat(Database.effects(earlyFail.messageKey())).isEqualTo(1);
        assertThat(Database.effects(lateCreate.messageKey())).as("a create after its fail applies nothing").isZero();
        assertThat(record(lateCreate.messageKey())).containsEntry("outcome", "REJECTED")
                .containsEntry("outcome_reason", CancelBeforeCreateGuard.FAILED_BEFORE_CREATE);
    }

    @Test
    void aTombstoneFromOneBatchRejectsTheCreateInALaterOne() {
        String orderId = "O-" + UUID.randomUUID();
        OrderEvent cancel = event(OrderEventType.CANCEL, orderId);
        OrderEvent create = event(OrderEventType.CREATE, orderId);

        consumeBatch(List.of(cancel));
        Deliveries.Delivered later = consumeBatch(List.of(create, event(OrderEventType.CREATE, "O-" + UUID.randomUUID())));

        assertThat(later.acks).hasValue(1);
        assertThat(Database.effects(create.messageKey())).isZero();
        assertThat(record(create.messageKey())).containsEntry("outcome", "REJECTED");
        assertThat(progress(orderId)).isEqualTo("CANCELLED_BEFORE_CREATE");
    }

    @Test
    void aFailedElementLeavesNoProgressAndTheOthersCommitAlone() {
        String good = "O-" + UUID.randomUUID();
        String failing = "FAIL-" + UUID.randomUUID();
        OrderEvent goodCreate = event(OrderEventType.CREATE, good);
        OrderEvent failingCreate = event(OrderEventType.CREATE, failing);

        Deliveries.Delivered delivered = consumeBatch(List.of(goodCreate, failingCreate));

        assertThat(delivered.nacks).hasValue(1);
        assertThat(((RocketMQBatchFailure) delivered.nackCause.get()).failures()).containsOnlyKeys(1);
        assertThat(progress(good)).isEqualTo("CREATED");
        assertThat(Database.effects(goodCreate.messageKey())).isEqualTo(1);
        assertThat(progress(failing)).as("rolled back with its effect").isNull();
        assertThat(Database.effects(failingCreate.messageKey())).isZero();
    }

    /**
     * A batch locks the progress rows of the orders it names and no others, however few rows its
     * group has: for a new deployment's group MariaDB may read a long IN list by reading every row of
     * the group, and a locking read waits for rows that other transactions hold (two batches
     * deadlock). A group of its own makes this test that deployment.
     */
    @Test
    void aBatchDoesNotWaitForAnOrderItDoesNotNameEvenWhenItsGroupHasFewRows() throws Exception {
        String group = "new_group_" + UUID.randomUUID().toString().substring(0, 8);
        String held = "O-" + UUID.randomUUID();
        try (Connection connection = Database.connect(); PreparedStatement insert = connection.prepareStatement(
                "insert into order_event_progress (consumer_group, order_id, state, updated_at)"
                        + " values (?, ?, 'CREATED', utc_timestamp(3))")) {
            insert.setString(1, group);
            insert.setString(2, held);
            insert.executeUpdate();
        }
        List<OrderEvent> creates = IntStream.range(0, 60)
                .mapToObj(i -> event(OrderEventType.CREATE, "O-" + UUID.randomUUID())).toList();

        Deliveries.Delivered delivered;
        try (Connection other = Database.connect()) {
            other.setAutoCommit(false);
            try (PreparedStatement lock = other.prepareStatement("select state from order_event_progress"
                    + " where consumer_group = ? and order_id = ? for update")) {
                lock.setString(1, group);
                lock.setString(2, held);
                try (ResultSet row = lock.executeQuery()) {
                    assertThat(row.next()).as("the held order's row").isTrue();
                }
            }
            // Well within innodb_lock_wait_timeout (50 s): a batch that waits for the held row is still waiting.
            delivered = CompletableFuture.supplyAsync(() -> consumeBatch(creates, group)).get(20, TimeUnit.SECONDS);
            other.rollback();
        }

        assertThat(delivered.acks).hasValue(1);
        assertThat(creates).allSatisfy(create -> assertThat(progress(group, create.orderId())).isEqualTo("CREATED"));
        // One transaction applied them all (each transaction stamps its records with its own instant): a
        // batch that waited out the lock wait timeout (2 s here) fails and applies every element alone.
        assertThat(Database.count("select count(distinct processed_at) from consume_record where consumer_group = ?",
                group)).as("transactions that applied the batch").isEqualTo(1);
    }
}
