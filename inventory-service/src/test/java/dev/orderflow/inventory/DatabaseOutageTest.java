package dev.orderflow.inventory;

import static dev.orderflow.inventory.Inventory.available;
import static dev.orderflow.inventory.Inventory.create;
import static dev.orderflow.inventory.Inventory.newOrderId;
import static dev.orderflow.inventory.Inventory.newSku;
import static dev.orderflow.inventory.Inventory.setStock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;

import dev.orderflow.consumer.testing.DatabaseLink;
import dev.orderflow.consumer.testing.DatabaseLinkResource;
import dev.orderflow.consumer.testing.OrderTopicSender;
import io.quarkus.test.junit.QuarkusTest;
import dev.orderflow.order.events.OrderEvent;

/**
 * The database goes away mid-stream: the service's connections are dropped (like a KILL on the
 * server) and new ones refused for a few seconds, through the {@link DatabaseLink} the test
 * application connects through; the shared MariaDB server itself keeps running. Messages in that
 * window fail as system failures and are redelivered by the real broker with back-off.
 */
@QuarkusTest
class DatabaseOutageTest {

    private static final int ORDERS = 30;

    @Test
    void outageMidStreamIsRetriedWithNothingLostAndNothingDoubled() throws Exception {
        double retriedBefore = retried();
        String sku = newSku();
        setStock(sku, 1000);
        List<OrderEvent> creates = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            creates.add(create(newOrderId(), sku, 1));
        }
        DatabaseLink link = DatabaseLinkResource.link();
        try {
            for (int i = 0; i < ORDERS; i++) {
                OrderTopicSender.send(creates.get(i));
                if (i == ORDERS / 3) {
                    await().atMost(Inventory.PROCESSED).until(() -> deducted(creates) >= 3);
                    link.cut();
                }
            }
            // Hold the outage open for 4 s, checking all along that the rest cannot commit meanwhile.
            await("outage held").during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6))
                    .pollInterval(Duration.ofMillis(500)).until(() -> deducted(creates) < ORDERS);
            assertThat(deducted(creates)).as("nothing can commit while the database is away").isLessThan(ORDERS);
        } finally {
            link.restore();
        }

        await().atMost(Duration.ofSeconds(120)).until(() -> deducted(creates) == ORDERS);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> deducted(creates) == ORDERS);
        assertThat(available(sku)).isEqualTo(1000 - ORDERS);
        // Evidence that the outage hit deliveries: they were sent back for redelivery. (consume_failure
        // rows cannot be: the consumer takes batches, which fail while the database is away, so
        // their failure rows cannot be written either.)
        assertThat(retried() - retriedBefore).as("the outage was seen: deliveries were sent back for redelivery")
                .isPositive();
        for (OrderEvent create : creates) {
            assertThat(Inventory.outcome(create)).isEqualTo("DONE");
            await().atMost(Inventory.PROCESSED).until(() -> !Inventory.reports(create).isEmpty());
        }
    }

    /** The connector's count of deliveries of the order-events channel sent back for redelivery. */
    private static double retried() {
        Counter counter = Metrics.globalRegistry.find("rocketmq.messages.retried").tag("channel", "order-events")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private static long deducted(List<OrderEvent> creates) {
        return creates.stream().filter(c -> Inventory.movements(c.orderId(), "DEDUCT") > 0).count();
    }
}
