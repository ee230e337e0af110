package dev.orderflow.inventory;

import static dev.orderflow.inventory.Inventory.available;
import static dev.orderflow.inventory.Inventory.awaitConsumed;
import static dev.orderflow.inventory.Inventory.cancel;
import static dev.orderflow.inventory.Inventory.create;
import static dev.orderflow.inventory.Inventory.movements;
import static dev.orderflow.inventory.Inventory.newOrderId;
import static dev.orderflow.inventory.Inventory.newSku;
import static dev.orderflow.inventory.Inventory.setStock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.consumer.testing.Deliveries;
import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.inventory.messaging.OrderEventsConsumer;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEvent;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Concurrency and crash windows, against the real MariaDB and broker. Two "instances" are two
 * threads calling the service's {@code @Incoming} bean with the same delivery at the same moment
 * (what two consumers of inventory_group do after a rebalance hands them the same message); a crash
 * between commit and acknowledgement is a delivery whose ack never reaches the broker, followed by
 * the broker's redelivery of the same message.
 */
@QuarkusTest
class RacesAndCrashesTest {

    @Inject
    OrderEventsConsumer consumer;

    /** Delivers each message to two threads at once; returns both deliveries per message. */
    private List<Deliveries.Delivered> race(OrderEvent first, OrderEvent second) throws Exception {
        Deliveries.Delivered a = Deliveries.of(first, Inventory.GROUP, 0);
        Deliveries.Delivered b = Deliveries.of(second, Inventory.GROUP, 0);
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> runA = pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return consumer.onOrderEvent(a.message()).toCompletableFuture().get(60, TimeUnit.SECONDS);
            });
            Future<?> runB = pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return consumer.onOrderEvent(b.message()).toCompletableFuture().get(60, TimeUnit.SECONDS);
            });
            runA.get(90, TimeUnit.SECONDS);
            runB.get(90, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        return List.of(a, b);
    }

    @Test
    void sameMessageConsumedConcurrentlyByTwoInstancesHasOneEffect() throws Exception {
        String sku = newSku();
        setStock(sku, 1000);
        List<OrderEvent> orders = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            OrderEvent create = create(newOrderId(), sku, 7);
            orders.add(create);
            List<Deliveries.Delivered> both = race(create, create);
            assertThat(both).allSatisfy(d -> {
                assertThat(d.acks()).as("both acknowledged: the loser is a duplicate, not an error").isEqualTo(1);
                assertThat(d.nacks()).isZero();
            });
        }

        assertThat(available(sku)).isEqualTo(1000 - 10 * 7);
        for (OrderEvent create : orders) {
            assertThat(movements(create.orderId(), "DEDUCT")).isEqualTo(1);
            assertThat(CommittedState.number("select count(*) from consume_record where message_key = ?",
                    create.messageKey())).isEqualTo(1);
            assertThat(Inventory.awaitSingleReport(create).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
        }
    }

    @Test
    void createAndCancelConsumedAtTheSameTimeNeverLeaveStockDeducted() throws Exception {
        String sku = newSku();
        setStock(sku, 1000);
        for (int i = 0; i < 10; i++) {
            OrderEvent create = create(newOrderId(), sku, 5);
            OrderEvent cancel = cancel(create);

            for (Deliveries.Delivered delivery : race(create, cancel)) {
                if (delivery.nacks() > 0) {
                    // A transient failure (e.g. a deadlock victim) is redelivered by the broker; do the same.
                    OrderTopicSender.send(delivery.message().getPayload().contains("\"cancel\"") ? cancel : create);
                }
            }
            awaitConsumed(create);
            awaitConsumed(cancel);
            long deducted = movements(create.orderId(), "DEDUCT");
            long restored = movements(create.orderId(), "RESTORE");
            assertThat(restored).as("order %s: a cancel restores what its create deducted, never more", i)
                    .isEqualTo(deducted);
        }
        assertThat(available(sku)).as("every order was cancelled, whatever the order of arrival").isEqualTo(1000);
    }

    @Test
    void processKilledBetweenCommitAndAckIsRedeliveredAndDeduped() throws Exception {
        String sku = newSku();
        setStock(sku, 50);
        OrderEvent create = create(newOrderId(), sku, 5);

        // First delivery: the pipeline commits the deduction; its acknowledgement is lost with the process.
        Deliveries.Delivered lost = Deliveries.of(create, Inventory.GROUP, 0);
        consumer.onOrderEvent(lost.message()).toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertThat(available(sku)).isEqualTo(45);

        // The broker never saw CONSUME_SUCCESS, so it delivers the same message again.
        OrderTopicSender.send(create);
        awaitConsumed(create);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> available(sku) == 45);

        assertThat(movements(create.orderId(), "DEDUCT")).isEqualTo(1);
        assertThat(Inventory.awaitSingleReport(create).outcome()).isEqualTo(ConsumerReport.Outcome.DONE);
    }
}
