package dev.orderflow.status.domain;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.orderflow.order.events.OrderEventType;

/**
 * The rules that turn per-consumer outcomes into an order's state; the one place they live.
 *
 * <p>The order follows its latest event: the create, or the cancel once one was requested.
 * <ul>
 * <li>no cancel requested: any required consumer REJECTED/DEAD_LETTERED the create → FAILED;
 * else all DONE → COMPLETED; else PENDING;</li>
 * <li>cancel requested: all required consumers DONE for the cancel → CANCELLED; any of them
 * REJECTED/DEAD_LETTERED it (a reversal that failed) → FAILED; else PENDING (reversals
 * running), so a client can long-poll for the cancellation like for the create.</li>
 * </ul>
 * Outcomes only move forward ({@link #supersedes}), so a state derived from them never goes back
 * except for the documented PENDING while a cancel is in progress.
 */
public final class StateRules {

    private StateRules() {
    }

    /**
     * Whether a newly learned outcome replaces the recorded one for the same (order, consumer,
     * event). The first outcome wins (duplicates, or a dead letter read after the consumer's own
     * report of it), except that a DEAD_LETTERED message may later be re-driven from the DLQ and
     * consumed: its DONE or REJECTED then replaces the dead letter, whatever the order of arrival.
     */
    public static boolean supersedes(ConsumerState recorded, ConsumerState learned) {
        if (recorded == null || recorded == ConsumerState.PENDING) {
            return true;
        }
        return recorded == ConsumerState.DEAD_LETTERED
                && (learned == ConsumerState.DONE || learned == ConsumerState.REJECTED);
    }

    /** The event the order's state follows. */
    public static OrderEventType trackedEvent(boolean cancelRequested) {
        return cancelRequested ? OrderEventType.CANCEL : OrderEventType.CREATE;
    }

    /**
     * Each required consumer's state for {@code event}, in the configured order.
     *
     * @param outcomes all outcomes of the order (any consumer, any event)
     */
    public static Map<String, ConsumerState> consumerStates(List<String> requiredConsumers, OrderEventType event,
            List<ConsumerOutcome> outcomes) {
        Map<String, ConsumerState> states = new LinkedHashMap<>();
        requiredConsumers.forEach(c -> states.put(c, ConsumerState.PENDING));
        for (ConsumerOutcome outcome : outcomes) {
            if (event.tag().equals(outcome.eventType) && states.containsKey(outcome.consumer)) {
                states.put(outcome.consumer, outcome.outcome);
            }
        }
        return states;
    }

    /** The state of an order given its outcomes. */
    public static OrderState state(List<String> requiredConsumers, boolean cancelRequested,
            List<ConsumerOutcome> outcomes) {
        Map<String, ConsumerState> states = consumerStates(requiredConsumers, trackedEvent(cancelRequested), outcomes);
        if (states.values().stream().anyMatch(ConsumerState::failed)) {
            return OrderState.FAILED;
        }
        if (states.values().stream().allMatch(s -> s == ConsumerState.DONE)) {
            return cancelRequested ? OrderState.CANCELLED : OrderState.COMPLETED;
        }
        return OrderState.PENDING;
    }

    /**
     * The failure to show for a FAILED order: among the required consumers' failed outcomes of the
     * tracked event, the one that happened first (ties: recorded first, then consumer name).
     * Null when none failed.
     */
    public static Failure firstFailure(List<String> requiredConsumers, boolean cancelRequested,
            List<ConsumerOutcome> outcomes) {
        String event = trackedEvent(cancelRequested).tag();
        return outcomes.stream()
                .filter(o -> event.equals(o.eventType) && requiredConsumers.contains(o.consumer) && o.outcome.failed())
                .min(Comparator.comparing((ConsumerOutcome o) -> o.occurredAt)
                        .thenComparing(o -> o.recordedAt)
                        .thenComparing(o -> o.consumer))
                .map(ConsumerOutcome::failure)
                .orElse(null);
    }
}
