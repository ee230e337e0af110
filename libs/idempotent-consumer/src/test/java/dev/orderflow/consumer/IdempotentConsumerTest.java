package dev.orderflow.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.rocketmq.RocketMQBatchFailure;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The pipeline against the real MariaDB at 127.0.0.1:3306 (database orderflow_pipeline_test),
 * with messages carrying the connector's metadata and recording their ack/nack callbacks. The
 * database is observed through a separate JDBC connection, so only committed rows count.
 */
@QuarkusTest
class IdempotentConsumerTest {

    @Inject
    IdempotentConsumer consumer;

    @Inject
    TestEffects effects;

    private final AtomicInteger handlerCalls = new AtomicInteger();

    private static OrderEvent newOrderEvent() {
        String orderId = "O-" + UUID.randomUUID();
        return OrderEvent.of(OrderEventType.CREATE, orderId, "C-1", "+819012345678",
                List.of(new OrderItem("SKU-1", 2, new BigDecimal("12.50"))), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    private CompletionStage<Void> consumeApplying(Message<?> message) {
        return consumer.consume(message, OrderEventParser::parse, OrderEvent::messageKey, (event, context) -> {
            handlerCalls.incrementAndGet();
            effects.apply(context.messageKey());
            return Outcome.done();
        });
    }

    @Test
    void sameMessageDeliveredTenTimesHasOneEffect() {
        OrderEvent event = newOrderEvent();
        String body = OrderEventJson.toJson(event);

        for (int reconsumeTimes = 0; reconsumeTimes < 10; reconsumeTimes++) {
            Deliveries.Delivered delivered = Deliveries.deliver(body, event.messageKey(), reconsumeTimes);
            consumeApplying(delivered.message).toCompletableFuture().join();
            assertThat(delivered.acks).as("delivery %d acked", reconsumeTimes).hasValue(1);
            assertThat(delivered.nacks).hasValue(0);
        }

        assertThat(handlerCalls).hasValue(1);
        assertThat(Database.effects(event.messageKey())).isEqualTo(1);
        assertThat(Database.consumeRecords(event.messageKey())).isEqualTo(1);
        assertThat(Database.failures(event.messageKey())).isEmpty();
    }

    @Test
    void twoThreadsHandlingTheSameMessageConcurrentlyHaveOneEffect() throws Exception {
        OrderEvent event = newOrderEvent();
        String body = OrderEventJson.toJson(event);
        CountDownLatch firstInHandler = new CountDownLatch(1);
        CountDownLatch secondStarted = new CountDownLatch(1);
        MessageHandler<OrderEvent> slowHandler = (e, context) -> {
            handlerCalls.incrementAndGet();
            effects.apply(context.messageKey());
            firstInHandler.countDown();
            // Keep this transaction open while the second delivery checks and tries to insert.
            secondStarted.await(10, TimeUnit.SECONDS);
            Thread.sleep(500);
            return Outcome.done();
        };
        Deliveries.Delivered first = Deliveries.deliver(body, event.messageKey(), 0);
        Deliveries.Delivered second = Deliveries.deliver(body, event.messageKey(), 0);

        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> firstRun = pool.submit(() -> consumer.consume(first.message, OrderEventParser::parse,
                    OrderEvent::messageKey, slowHandler).toCompletableFuture().join());
            assertThat(firstInHandler.await(10, TimeUnit.SECONDS)).isTrue();
            Future<?> secondRun = pool.submit(() -> {
                secondStarted.countDown();
                consumer.consume(second.message, OrderEventParser::parse, OrderEvent::messageKey, slowHandler)
                        .toCompletableFuture().join();
            });
            firstRun.get(30, TimeUnit.SECONDS);
            secondRun.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }

        assertThat(handlerCalls).as("the business change ran once").hasValue(1);
        assertThat(first.acks).hasValue(1);
        assertThat(second.acks).as("the duplicate is acknowledged, not retried").hasValue(1);
        assertThat(first.nacks.get() + second.nacks.get()).isZero();
        assertThat(Database.effects(event.messageKey())).isEqualTo(1);
        assertThat(Database.consumeRecords(event.messageKey())).isEqualTo(1);
    }

    @Test
    void badJsonIsAPermanentFormatFailureRecordedOnce() {
        String keys = "O-" + UUID.randomUUID() + ":create";
        Deliveries.Delivered delivered = Deliveries.deliver("{\"schemaVersion\":1, not json", keys, 0);

        consumeApplying(delivered.message).toCompletableFuture().join();

        assertThat(delivered.acks).hasValue(0);
        assertThat(delivered.nacks).hasValue(1);
        RocketMQPermanentFailure permanent = RocketMQPermanentFailure.find(delivered.nackCause.get());
        assertThat(permanent).as("nacked with the permanent marker").isNotNull();
        assertThat(permanent.failureClass()).isEqualTo("format");
        assertThat(handlerCalls).hasValue(0);
        assertThat(Database.consumeRecords(keys)).isZero();
        List<Map<String, Object>> failures = Database.failures(keys);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).containsEntry("failure_class", "format").containsEntry("permanent", true)
                .containsEntry("attempt", 1);
        assertThat((String) failures.get(0).get("reason")).contains("not JSON");
    }

    @Test
    void missingFieldIsAFormatFailureNamingTheField() {
        String keys = "O-" + UUID.randomUUID() + ":create";
        String body = OrderEventJson.toJson(newOrderEvent()).replaceFirst("\"phone\":\"[^\"]*\",", "");

        Deliveries.Delivered delivered = Deliveries.deliver(body, keys, 0);
        consumeApplying(delivered.message).toCompletableFuture().join();

        assertThat(RocketMQPermanentFailure.find(delivered.nackCause.get())).isNotNull();
        assertThat(Database.failures(keys)).singleElement()
                .satisfies(row -> assertThat((String) row.get("reason")).contains("phone").contains("missing"));
    }

    @Test
    void aBatchAppliesEachNewElementOnceAndSkipsRecordedAndRepeatedKeys() {
        OrderEvent processedBefore = newOrderEvent();
        consumeApplying(Deliveries.deliver(OrderEventJson.toJson(processedBefore), processedBefore.messageKey(), 0).message)
                .toCompletableFuture().join();
        List<OrderEvent> fresh = List.of(newOrderEvent(), newOrderEvent(), newOrderEvent(), newOrderEvent());
        List<OrderEvent> batch = new java.util.ArrayList<>(fresh);
        batch.add(1, processedBefore);
        batch.add(fresh.get(2)); // the same message twice in one batch
        handlerCalls.set(0);

        Deliveries.Delivered delivered = Deliveries.deliverBatch(batch.stream().map(OrderEventJson::toJson).toList(),
                batch.stream().map(OrderEvent::messageKey).toList());
        consumeApplying(delivered.batch).toCompletableFuture().join();

        assertThat(delivered.acks).hasValue(1);
        assertThat(delivered.nacks).hasValue(0);
        assertThat(handlerCalls).as("only the new elements, each once").hasValue(fresh.size());
        for (OrderEvent event : batch) {
            assertThat(Database.effects(event.messageKey())).as(event.messageKey()).isEqualTo(1);
            assertThat(Database.consumeRecords(event.messageKey())).as(event.messageKey()).isEqualTo(1);
        }
    }

    @Test
    void aBatchNamesOnlyItsFailedElementsAndCommitsTheOthers() throws Exception {
        OrderEvent good1 = newOrderEvent();
        OrderEvent business = newOrderEvent();
        OrderEvent locked = newOrderEvent();
        OrderEvent good2 = newOrderEvent();
        List<String> bodies = List.of(OrderEventJson.toJson(good1), "{not json", OrderEventJson.toJson(business),
                OrderEventJson.toJson(locked), OrderEventJson.toJson(good2));
        List<String> keys = List.of(good1.messageKey(), "bad-json-" + UUID.randomUUID(), business.messageKey(),
                locked.messageKey(), good2.messageKey());
        MessageHandler<OrderEvent> handler = (e, context) -> {
            handlerCalls.incrementAndGet();
            effects.apply(context.messageKey());
            if (e.orderId().equals(business.orderId())) {
                throw new BusinessFailure("unknown SKU SKU-404");
            }
            if (e.orderId().equals(locked.orderId())) {
                effects.deductLockedStock();
            }
            return Outcome.done();
        };

        Deliveries.Delivered delivered = Deliveries.deliverBatch(bodies, keys);
        try (Connection locker = Database.connect()) {
            locker.setAutoCommit(false);
            try (Statement statement = locker.createStatement()) {
                statement.executeQuery("select * from test_stock where sku = 'SKU-LOCKED' for update").close();
            }
            consumer.consume(delivered.batch, OrderEventParser::parse, OrderEvent::messageKey, handler)
                    .toCompletableFuture().join();
            locker.rollback();
        }

        assertThat(delivered.acks).hasValue(0);
        assertThat(delivered.nacks).hasValue(1);
        assertThat(delivered.nackCause.get()).isInstanceOf(RocketMQBatchFailure.class);
        Map<Integer, Throwable> failures = ((RocketMQBatchFailure) delivered.nackCause.get()).failures();
        assertThat(failures).containsOnlyKeys(1, 2, 3);
        assertThat(RocketMQPermanentFailure.find(failures.get(1)).failureClass()).isEqualTo("format");
        assertThat(RocketMQPermanentFailure.find(failures.get(2)).failureClass()).isEqualTo("business");
        assertThat(RocketMQPermanentFailure.find(failures.get(3))).as("lock wait timeout: transient").isNull();
        for (OrderEvent done : List.of(good1, good2)) {
            assertThat(Database.effects(done.messageKey())).isEqualTo(1);
            assertThat(Database.consumeRecords(done.messageKey())).isEqualTo(1);
            assertThat(Database.failures(done.messageKey())).isEmpty();
        }
        for (OrderEvent failed : List.of(business, locked)) {
            assertThat(Database.effects(failed.messageKey())).as("rolled back").isZero();
            assertThat(Database.consumeRecords(failed.messageKey())).isZero();
            assertThat(Database.failures(failed.messageKey())).hasSize(1);
        }
        assertThat(Database.failures(keys.get(1))).singleElement()
                .satisfies(row -> assertThat(row).containsEntry("failure_class", "format"));

        // The connector redelivers only the transient element: applied then, once.
        Deliveries.Delivered retried = Deliveries.deliver(OrderEventJson.toJson(locked), locked.messageKey(), 1);
        consumer.consume(retried.message, OrderEventParser::parse, OrderEvent::messageKey, handler)
                .toCompletableFuture().join();
        assertThat(retried.acks).hasValue(1);
        assertThat(Database.effects(locked.messageKey())).isEqualTo(1);
        assertThat(Database.effects(good1.messageKey())).isEqualTo(1);
    }

    @Test
    void businessFailureIsPermanentAndRollsTheEffectBack() {
        OrderEvent event = newOrderEvent();
        Deliveries.Delivered delivered = Deliveries.deliver(OrderEventJson.toJson(event), event.messageKey(), 0);

        consumer.consume(delivered.message, OrderEventParser::parse, OrderEvent::messageKey, (e, context) -> {
            effects.apply(context.messageKey());
            throw new BusinessFailure("unknown SKU SKU-404");
        }).toCompletableFuture().join();

        assertThat(delivered.acks).hasValue(0);
        RocketMQPermanentFailure permanent = RocketMQPermanentFailure.find(delivered.nackCause.get());
        assertThat(permanent).isNotNull();
        assertThat(permanent.failureClass()).isEqualTo("business");
        assertThat(Database.effects(event.messageKey())).as("effect rolled back").isZero();
        assertThat(Database.consumeRecords(event.messageKey())).isZero();
        assertThat(Database.failures(event.messageKey())).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("failure_class", "business").containsEntry("permanent", true);
            assertThat((String) row.get("reason")).isEqualTo("unknown SKU SKU-404");
        });
    }

    @Test
    void rejectedIsAnOutcomeNotAnError() {
        OrderEvent event = newOrderEvent();
        String body = OrderEventJson.toJson(event);
        MessageHandler<OrderEvent> rejecting = (e, context) -> {
            handlerCalls.incrementAndGet();
            return Outcome.rejected("insufficient stock for SKU-1");
        };

        for (int reconsumeTimes = 0; reconsumeTimes < 2; reconsumeTimes++) {
            Deliveries.Delivered delivered = Deliveries.deliver(body, event.messageKey(), reconsumeTimes);
            consumer.consume(delivered.message, OrderEventParser::parse, OrderEvent::messageKey, rejecting)
                    .toCompletableFuture().join();
            assertThat(delivered.acks).hasValue(1);
        }

        assertThat(handlerCalls).hasValue(1);
        assertThat(Database.rows("select outcome, outcome_reason from consume_record where consumer_group = ? and message_key = ?",
                Deliveries.GROUP, event.messageKey()))
                .containsExactly(Map.of("outcome", "REJECTED", "outcome_reason", "insufficient stock for SKU-1"));
        assertThat(Database.failures(event.messageKey())).isEmpty();
    }

    @Test
    void transientDatabaseFailureIsNackedWithoutThePermanentMarkerAndRetriedLater() throws Exception {
        OrderEvent event = newOrderEvent();
        String body = OrderEventJson.toJson(event);
        MessageHandler<OrderEvent> deducting = (e, context) -> {
            handlerCalls.incrementAndGet();
            effects.deductLockedStock();
            effects.apply(context.messageKey());
            return Outcome.done();
        };

        Deliveries.Delivered third;
        try (Connection locker = Database.connect()) {
            locker.setAutoCommit(false);
            try (Statement statement = locker.createStatement()) {
                statement.executeQuery("select * from test_stock where sku = 'SKU-LOCKED' for update").close();
            }
            // Third delivery attempt (reconsumeTimes 2) runs into the lock and times out.
            third = Deliveries.deliver(body, event.messageKey(), 2);
            consumer.consume(third.message, OrderEventParser::parse, OrderEvent::messageKey, deducting)
                    .toCompletableFuture().join();
            locker.rollback();
        }

        assertThat(third.acks).hasValue(0);
        assertThat(third.nacks).hasValue(1);
        assertThat(RocketMQPermanentFailure.find(third.nackCause.get())).as("transient: no permanent marker").isNull();
        assertThat(Database.consumeRecords(event.messageKey())).isZero();
        assertThat(Database.effects(event.messageKey())).isZero();
        assertThat(Database.failures(event.messageKey())).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("failure_class", "system").containsEntry("permanent", false)
                    .containsEntry("attempt", 3);
            assertThat((String) row.get("reason")).containsIgnoringCase("lock wait timeout");
        });

        Deliveries.Delivered fourth = Deliveries.deliver(body, event.messageKey(), 3);
        consumer.consume(fourth.message, OrderEventParser::parse, OrderEvent::messageKey, deducting)
                .toCompletableFuture().join();

        assertThat(fourth.acks).hasValue(1);
        assertThat(Database.effects(event.messageKey())).isEqualTo(1);
        assertThat(Database.consumeRecords(event.messageKey())).isEqualTo(1);
    }

    @Test
    void nothingIsAcknowledgedBeforeTheTransactionCommits() {
        OrderEvent event = newOrderEvent();
        AtomicBoolean ackedBeforeHandlerReturned = new AtomicBoolean();
        AtomicBoolean committedWhenAcked = new AtomicBoolean();
        Deliveries.Delivered[] holder = new Deliveries.Delivered[1];
        holder[0] = Deliveries.deliver(OrderEventJson.toJson(event), event.messageKey(), 0, () -> committedWhenAcked.set(
                Database.consumeRecords(event.messageKey()) == 1 && Database.effects(event.messageKey()) == 1));

        consumer.consume(holder[0].message, OrderEventParser::parse, OrderEvent::messageKey, (e, context) -> {
            effects.apply(context.messageKey());
            ackedBeforeHandlerReturned.set(holder[0].acks.get() > 0 || holder[0].nacks.get() > 0);
            return Outcome.done();
        }).toCompletableFuture().join();

        assertThat(ackedBeforeHandlerReturned).isFalse();
        assertThat(holder[0].acks).hasValue(1);
        assertThat(committedWhenAcked).as("record and effect visible to another connection at ack time").isTrue();
    }

    @Test
    void keysOfTheMessageAreUsedWhenNoKeyFunctionIsGiven() {
        OrderEvent event = newOrderEvent();
        // An order event key, but not the body's: proves which one the pipeline dedupes on.
        String transportKey = "K-" + UUID.randomUUID() + ":create";
        for (int i = 0; i < 3; i++) {
            Deliveries.Delivered delivered = Deliveries.deliver(OrderEventJson.toJson(event), transportKey, i);
            consumer.consume(delivered.message, OrderEventParser::parse, (e, context) -> {
                effects.apply(context.messageKey());
                return Outcome.done();
            }).toCompletableFuture().join();
            assertThat(delivered.acks).hasValue(1);
        }
        assertThat(Database.effects(transportKey)).isEqualTo(1);

        Deliveries.Delivered keyless = Deliveries.deliver(OrderEventJson.toJson(event), null, 0);
        consumer.consume(keyless.message, OrderEventParser::parse, (e, context) -> Outcome.done())
                .toCompletableFuture().join();
        assertThat(RocketMQPermanentFailure.find(keyless.nackCause.get()))
                .isNotNull()
                .extracting(RocketMQPermanentFailure::failureClass).isEqualTo("format");
    }

    @Test
    void messageFromAnotherConnectorIsAProgrammingError() {
        assertThatThrownBy(() -> consumeApplying(Message.of("{}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("IncomingRocketMQMetadata");
    }
}
