package dev.orderflow.status;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.status.StatusClient.allDone;
import static dev.orderflow.status.StatusClient.awaitOutcome;
import static dev.orderflow.status.StatusClient.awaitState;
import static dev.orderflow.status.StatusClient.get;
import static dev.orderflow.status.StatusClient.newOrderId;
import static dev.orderflow.status.StatusClient.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.order.events.OrderMessaging;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * How an order ended, published once to order_outcome_topic in the transaction that decided it
 * (through the outbox and its relay): COMPLETED, FAILED with its failure, CANCELLED once every
 * reversal is done; each consumer's compensation of a FAILED order shown per consumer and counted
 * while pending. Dead letters that are not business failures, and failed reversals, wait for an
 * operator (ATTENTION) and publish nothing. Real in-process broker (Dev Services), real MariaDB.
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class OrderOutcomesTest {

    private static final Duration ARRIVAL = Duration.ofSeconds(30);

    @Test
    void aCompletedOrderPublishesItsOutcomeOnce() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        allDone(orderId, OrderEventType.CREATE);
        JsonPath completed = awaitState(orderId, "COMPLETED");
        // A late duplicate report changes nothing and publishes nothing more.
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");

        OrderOutcome outcome = awaitOutcome(orderId, OrderOutcome.Outcome.COMPLETED);
        assertThat(outcome.reachedAt()).isEqualTo(Instant.parse(completed.getString("completedAt")));
        assertThat(outcome.failure()).isNull();
        awaitLaterOutcomeOfAnotherOrder();
        assertThat(outcomes(orderId)).hasSize(1);
    }

    @Test
    void aBusinessRejectionPublishesFailedWithItsFailureAndShowsTheCompensationPerConsumer() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.done(orderId, OrderEventType.CREATE, "points");
        StatusBroker.send(ConsumerReport.rejected(orderId, OrderEventType.CREATE, "inventory",
                "insufficient stock for SKU-1: 2 requested, 1 available", Instant.now()));

        JsonPath failed = awaitState(orderId, "FAILED");
        assertThat(failed.getMap("compensation")).containsExactly(Map.entry("inventory", "PENDING"),
                Map.entry("sms", "PENDING"), Map.entry("points", "PENDING"));
        OrderOutcome outcome = awaitOutcome(orderId, OrderOutcome.Outcome.FAILED);
        assertThat(outcome.failure()).isEqualTo(new OrderFailure("inventory", "business",
                "insufficient stock for SKU-1: 2 requested, 1 available"));
        long pendingBefore = compensationsPending();
        assertThat(pendingBefore).isGreaterThanOrEqualTo(1);

        // order-service's fail event ran everywhere: each consumer reports its compensation.
        StatusBroker.done(orderId, OrderEventType.FAIL, "inventory");
        StatusBroker.done(orderId, OrderEventType.FAIL, "sms");
        await().atMost(ARRIVAL).until(() -> "DONE".equals(get(orderId).jsonPath().getString("compensation.sms")));
        get(orderId).then().body("state", equalTo("FAILED")).body("compensation.points", equalTo("PENDING"));
        StatusBroker.done(orderId, OrderEventType.FAIL, "points");
        await().atMost(ARRIVAL).until(() -> "DONE".equals(get(orderId).jsonPath().getString("compensation.points")));
        get(orderId).then()
                .body("state", equalTo("FAILED"))
                .body("consumers.inventory", equalTo("REJECTED"))
                .body("failure.consumer", equalTo("inventory"))
                .body("failure.class", equalTo("business"));
        assertThat(outcomes(orderId)).hasSize(1);
    }

    @Test
    void aBusinessDeadLetterFailsTheOrderAndAnOrderDecidedFailedStaysFailed() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.deadLetter(OrderMessaging.INVENTORY_GROUP, orderId, "business", "unknown SKU SKU-X");
        awaitState(orderId, "FAILED");
        assertThat(awaitOutcome(orderId, OrderOutcome.Outcome.FAILED).failure())
                .isEqualTo(new OrderFailure("inventory", "business", "unknown SKU SKU-X"));
        // A re-drive that succeeded after all does not undo a decided failure (it was compensated).
        StatusBroker.done(orderId, OrderEventType.CREATE, "inventory");
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.done(orderId, OrderEventType.CREATE, "points");
        await().atMost(ARRIVAL).until(() -> "DONE".equals(get(orderId).jsonPath().getString("consumers.points")));
        get(orderId).then().body("state", equalTo("FAILED")).body("completedAt", nullValue());
        awaitLaterOutcomeOfAnotherOrder();
        assertThat(outcomes(orderId)).extracting(OrderOutcome::outcome).containsExactly(OrderOutcome.Outcome.FAILED);
    }

    @Test
    void aCancelPublishesCancelledOnceEveryReversalIsDone() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        allDone(orderId, OrderEventType.CREATE);
        awaitOutcome(orderId, OrderOutcome.Outcome.COMPLETED);
        StatusBroker.sendCancel(orderId);
        StatusBroker.done(orderId, OrderEventType.CANCEL, "inventory");
        StatusBroker.done(orderId, OrderEventType.CANCEL, "sms");
        awaitState(orderId, "PENDING");
        StatusBroker.done(orderId, OrderEventType.CANCEL, "points");

        awaitState(orderId, "CANCELLED");
        awaitOutcome(orderId, OrderOutcome.Outcome.CANCELLED);
        assertThat(outcomes(orderId)).extracting(OrderOutcome::outcome)
                .containsExactlyInAnyOrder(OrderOutcome.Outcome.COMPLETED, OrderOutcome.Outcome.CANCELLED);
    }

    @Test
    void aReversalThatFailedWaitsForAnOperatorAndPublishesNothing() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        allDone(orderId, OrderEventType.CREATE);
        awaitOutcome(orderId, OrderOutcome.Outcome.COMPLETED);
        StatusBroker.sendCancel(orderId);
        StatusBroker.done(orderId, OrderEventType.CANCEL, "inventory");
        StatusBroker.done(orderId, OrderEventType.CANCEL, "sms");
        StatusBroker.send(ConsumerReport.deadLettered(orderId, OrderEventType.CANCEL, "points", "system",
                "retries exhausted", Instant.now()));

        JsonPath attention = awaitState(orderId, "ATTENTION");
        assertThat(attention.getString("failure.consumer")).isEqualTo("points");
        assertThat(attention.getString("failure.class")).isEqualTo("system");
        awaitLaterOutcomeOfAnotherOrder();
        assertThat(outcomes(orderId)).extracting(OrderOutcome::outcome).containsExactly(OrderOutcome.Outcome.COMPLETED);
    }

    @Test
    void aCancelAcceptedBeforeTheFailureReachedOrderServiceEndsCancelled() {
        String orderId = newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.send(ConsumerReport.rejected(orderId, OrderEventType.CREATE, "inventory", "insufficient stock",
                Instant.now()));
        awaitOutcome(orderId, OrderOutcome.Outcome.FAILED);
        // order-service had accepted a cancel first, so it sent no fail event: the cancel's reversals compensate.
        StatusBroker.sendCancel(orderId);
        allDone(orderId, OrderEventType.CANCEL);

        awaitState(orderId, "CANCELLED");
        awaitOutcome(orderId, OrderOutcome.Outcome.CANCELLED);
        get(orderId).then().body("failure", nullValue()).body("compensation", nullValue());
    }

    /** An outcome decided after the ones a test looked at reached the topic: the relay passed them. */
    private static void awaitLaterOutcomeOfAnotherOrder() {
        String later = newOrderId();
        StatusBroker.sendCreate(later);
        allDone(later, OrderEventType.CREATE);
        awaitOutcome(later, OrderOutcome.Outcome.COMPLETED);
    }

    private static long compensationsPending() {
        return given().get("/status/summary").then().statusCode(200).extract().jsonPath().getLong("compensationsPending");
    }
}
