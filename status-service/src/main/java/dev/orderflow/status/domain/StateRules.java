package dev.orderflow.status.domain;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import dev.orderflow.order.events.OrderEventType;

/**
 * The rules that turn per-consumer outcomes into an order's state; the one place they live.
 *
 * <p>The order follows its latest event: the create, or the cancel once one was requested.
 * <ul>
 * <li>cancel requested: all required consumers DONE for the cancel → CANCELLED; any of them
 * REJECTED/DEAD_LETTERED it (a reversal that failed) → ATTENTION; else PENDING (reversals
 * running), so a client can long-poll for the cancellation like for the create. A cancel wins over
 * a FAILED decision: order-service accepted it, so it sent no fail event and the cancel's
 * reversals compensate.</li>
 * <li>decided FAILED before (a business failure, or an operator abandoned the order): FAILED, final.</li>
 * <li>otherwise the create: any required consumer REJECTED it, or dead-lettered it as a
 * {@code business} failure → FAILED; else any dead-lettered it for another reason (retries
 * exhausted, unreadable) → ATTENTION; else all DONE → COMPLETED; else PENDING.</li>
 * </ul>
 * Outcomes only move forward ({@link #supersedes}), so a state derived from them never goes back
 * except for the documented PENDING while a cancel is in progress, and ATTENTION after a re-drive.
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

    /**
     * The state of an order given its outcomes.
     *
     * @param decidedFailed whether the order was decided FAILED before (final unless a cancel is requested)
     */
    public static OrderState state(List<String> requiredConsumers, boolean cancelRequested, boolean decidedFailed,
            List<ConsumerOutcome> outcomes) {
        Map<String, ConsumerState> states = consumerStates(requiredConsumers, trackedEvent(cancelRequested), outcomes);
        if (cancelRequested) {
            if (states.values().stream().anyMatch(ConsumerState::failed)) {
                return OrderState.ATTENTION;
            }
            return states.values().stream().allMatch(s -> s == ConsumerState.DONE) ? OrderState.CANCELLED
                    : OrderState.PENDING;
        }
        if (decidedFailed || firstFailure(requiredConsumers, false, outcomes, StateRules::businessFailure) != null) {
            return OrderState.FAILED;
        }
        if (states.values().stream().anyMatch(ConsumerState::failed)) {
            return OrderState.ATTENTION;
        }
        return states.values().stream().allMatch(s -> s == ConsumerState.DONE) ? OrderState.COMPLETED
                : OrderState.PENDING;
    }

    /**
     * The failure to show for a FAILED order: among the required consumers' business failures of the
     * create, the one that happened first. Null when there is none.
     */
    public static Failure businessFailure(List<String> requiredConsumers, List<ConsumerOutcome> outcomes) {
        return firstFailure(requiredConsumers, false, outcomes, StateRules::businessFailure);
    }

    /**
     * What an order in ATTENTION waits for: among the required consumers' failed outcomes of the
     * tracked event, the one that happened first. Null when none failed.
     */
    public static Failure firstFailure(List<String> requiredConsumers, boolean cancelRequested,
            List<ConsumerOutcome> outcomes) {
        return firstFailure(requiredConsumers, cancelRequested, outcomes, o -> true);
    }

    /** A consumer's business "no" to a create: a rejection, or a dead letter of class {@code business}. */
    private static boolean businessFailure(ConsumerOutcome outcome) {
        return outcome.outcome == ConsumerState.REJECTED
                || outcome.outcome == ConsumerState.DEAD_LETTERED && Failure.REJECTED_CLASS.equals(outcome.failureClass);
    }

    /** The first failed outcome matching {@code kind} (ties: recorded first, then consumer name). */
    private static Failure firstFailure(List<String> requiredConsumers, boolean cancelRequested,
            List<ConsumerOutcome> outcomes, Predicate<ConsumerOutcome> kind) {
        String event = trackedEvent(cancelRequested).tag();
        return outcomes.stream()
                .filter(o -> event.equals(o.eventType) && requiredConsumers.contains(o.consumer) && o.outcome.failed()
                        && kind.test(o))
                .min(Comparator.comparing((ConsumerOutcome o) -> o.occurredAt)
                        .thenComparing(o -> o.recordedAt)
                        .thenComparing(o -> o.consumer))
                .map(ConsumerOutcome::failure)
                .orElse(null);
    }
}
