package dev.orderflow.points;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.consumer.testing.DatabaseLink;
import dev.orderflow.consumer.testing.DatabaseLinkResource;
import dev.orderflow.consumer.testing.OrderTopicSender;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The database goes away mid-stream (connections dropped and refused through the
 * {@link DatabaseLink}; the shared MariaDB server keeps running): the messages in that window are
 * redelivered by the real broker and every order is credited exactly once.
 */
@QuarkusTest
class PointsDatabaseOutageTest {

    private static final int ORDERS = 20;

    @Test
    void outageMidStreamIsRetriedWithNothingLostAndNothingDoubled() throws Exception {
        String customer = "C-" + UUID.randomUUID();
        List<OrderEvent> creates = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            creates.add(OrderEvent.of(OrderEventType.CREATE, "O-" + UUID.randomUUID(), customer, "+819012345678",
                    List.of(new OrderItem("SKU-1", 1, new BigDecimal("2.50"))), Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        }
        DatabaseLink link = DatabaseLinkResource.link();
        try {
            for (int i = 0; i < ORDERS; i++) {
                OrderTopicSender.send(creates.get(i));
                if (i == ORDERS / 4) {
                    await().atMost(Duration.ofSeconds(60)).until(() -> credited(customer) >= 2);
                    link.cut();
                }
            }
            // Hold the outage open for 4 s, checking all along that the rest cannot commit meanwhile.
            await("outage held").during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6))
                    .pollInterval(Duration.ofMillis(500)).until(() -> credited(customer) < ORDERS);
            assertThat(credited(customer)).as("nothing can commit while the database is away").isLessThan(ORDERS);
        } finally {
            link.restore();
        }

        await().atMost(Duration.ofSeconds(120)).until(() -> credited(customer) == ORDERS);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> credited(customer) == ORDERS);
        given().get("/points/{customerId}", customer).then().statusCode(200)
                .body("balance", equalTo(ORDERS * 2));
    }

    private static long credited(String customerId) {
        return CommittedState.number("select count(*) from points_ledger where customer_id = ? and reason = 'ORDER_CREDIT'",
                customerId);
    }
}
