package dev.orderflow.status.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The derivation rules on their own (no broker, no database). */
class StateRulesTest {

    private static final List<String> REQUIRED = List.of("inventory", "sms", "points");

    private final List<ConsumerOutcome> outcomes = new ArrayList<>();

    private void outcome(String consumer, String event, ConsumerState state, String failureClass, String reason,
            int second) {
        ConsumerOutcome o = new ConsumerOutcome();
        o.orderId = "O1";
        o.consumer = consumer;
        o.eventType = event;
        o.outcome = state;
        o.failureClass = failureClass;
        o.reason = reason;
        o.occurredAt = Instant.ofEpochSecond(second);
        o.recordedAt = Instant.ofEpochSecond(100 + second);
        outcomes.add(o);
    }

    @Test
    void pendingUntilEveryRequiredConsumerIsDone() {
        outcome("inventory", "create", ConsumerState.DONE, null, null, 1);
        outcome("sms", "create", ConsumerState.DONE, null, null, 2);
        outcome("audit", "create", ConsumerState.REJECTED, null, "not required", 3);
        assertThat(StateRules.state(REQUIRED, false, false, outcomes)).isEqualTo(OrderState.PENDING);
        outcome("points", "create", ConsumerState.DONE, null, null, 4);
        assertThat(StateRules.state(REQUIRED, false, false, outcomes)).isEqualTo(OrderState.COMPLETED);
    }

    @Test
    void theEarliestFailureIsReported() {
        outcome("points", "create", ConsumerState.DEAD_LETTERED, "system", "timeout", 5);
        outcome("inventory", "create", ConsumerState.REJECTED, null, "insufficient stock", 2);
        assertThat(StateRules.state(REQUIRED, false, false, outcomes)).isEqualTo(OrderState.FAILED);
        assertThat(StateRules.firstFailure(REQUIRED, false, outcomes))
                .isEqualTo(new Failure("inventory", "business", "insufficient stock"));
    }

    @Test
    void aCancelIsFollowedOnceRequested() {
        outcome("inventory", "create", ConsumerState.DONE, null, null, 1);
        outcome("sms", "create", ConsumerState.DONE, null, null, 1);
        outcome("points", "create", ConsumerState.DONE, null, null, 1);
        outcome("inventory", "cancel", ConsumerState.DONE, null, null, 2);
        assertThat(StateRules.state(REQUIRED, true, false, outcomes)).isEqualTo(OrderState.PENDING);
        assertThat(StateRules.consumerStates(REQUIRED, StateRules.trackedEvent(true), outcomes))
                .containsExactly(Map.entry("inventory", ConsumerState.DONE),
                        Map.entry("sms", ConsumerState.PENDING),
                        Map.entry("points", ConsumerState.PENDING));
        outcome("sms", "cancel", ConsumerState.DONE, null, null, 3);
        outcome("points", "cancel", ConsumerState.DONE, null, null, 3);
        assertThat(StateRules.state(REQUIRED, true, false, outcomes)).isEqualTo(OrderState.CANCELLED);
    }

    @Test
    void aBusinessNoFailsTheOrderAndAnyOtherDeadLetterWaitsForAnOperator() {
        outcome("inventory", "create", ConsumerState.DONE, null, null, 1);
        outcome("sms", "create", ConsumerState.DONE, null, null, 1);
        outcome("points", "create", ConsumerState.DEAD_LETTERED, "system", "retries exhausted", 2);
        assertThat(StateRules.state(REQUIRED, false, false, outcomes)).isEqualTo(OrderState.ATTENTION);
        assertThat(StateRules.firstFailure(REQUIRED, false, outcomes))
                .isEqualTo(new Failure("points", "system", "retries exhausted"));
        assertThat(StateRules.businessFailure(REQUIRED, outcomes)).isNull();

        outcomes.clear();
        outcome("inventory", "create", ConsumerState.DEAD_LETTERED, "business", "unknown SKU SKU-X", 2);
        outcome("points", "create", ConsumerState.DEAD_LETTERED, "format", "unreadable", 1);
        assertThat(StateRules.state(REQUIRED, false, false, outcomes)).isEqualTo(OrderState.FAILED);
        assertThat(StateRules.businessFailure(REQUIRED, outcomes))
                .isEqualTo(new Failure("inventory", "business", "unknown SKU SKU-X"));
    }

    @Test
    void aDecidedFailureIsFinalUnlessACancelWasAccepted() {
        outcome("inventory", "create", ConsumerState.DONE, null, null, 1);
        outcome("sms", "create", ConsumerState.DONE, null, null, 1);
        outcome("points", "create", ConsumerState.DONE, null, null, 1);
        // An abandoned order stays FAILED even once every create is DONE (a re-drive after all, say).
        assertThat(StateRules.state(REQUIRED, false, true, outcomes)).isEqualTo(OrderState.FAILED);
        // A cancel order-service accepted compensates instead: the order follows it.
        assertThat(StateRules.state(REQUIRED, true, true, outcomes)).isEqualTo(OrderState.PENDING);
    }

    @Test
    void aReversalThatFailedWaitsForAnOperator() {
        outcome("inventory", "cancel", ConsumerState.DONE, null, null, 1);
        outcome("sms", "cancel", ConsumerState.DONE, null, null, 1);
        outcome("points", "cancel", ConsumerState.DEAD_LETTERED, "system", "retries exhausted", 2);
        assertThat(StateRules.state(REQUIRED, true, false, outcomes)).isEqualTo(OrderState.ATTENTION);
        assertThat(StateRules.firstFailure(REQUIRED, true, outcomes))
                .isEqualTo(new Failure("points", "system", "retries exhausted"));
    }

    @Test
    void onlyARedrivenDeadLetterIsSuperseded() {
        assertThat(StateRules.supersedes(null, ConsumerState.DEAD_LETTERED)).isTrue();
        assertThat(StateRules.supersedes(ConsumerState.DEAD_LETTERED, ConsumerState.DONE)).isTrue();
        assertThat(StateRules.supersedes(ConsumerState.DEAD_LETTERED, ConsumerState.REJECTED)).isTrue();
        assertThat(StateRules.supersedes(ConsumerState.DONE, ConsumerState.DEAD_LETTERED)).isFalse();
        assertThat(StateRules.supersedes(ConsumerState.REJECTED, ConsumerState.DONE)).isFalse();
        assertThat(StateRules.supersedes(ConsumerState.DEAD_LETTERED, ConsumerState.DEAD_LETTERED)).isFalse();
    }
}
