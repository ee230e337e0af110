package dev.orderflow.status.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import dev.orderflow.status.domain.OrderState;

/**
 * What happened in the last {@code window} before a moment: the orders created since {@code since},
 * per state they are in now, and how many orders completed since then (whenever they were created).
 *
 * @param window    how far back
 * @param since     the moment minus the window
 * @param counts    orders created since {@code since}, per current state (every state present, 0 when none)
 * @param completed orders whose completion (completed_at) falls since {@code since}
 */
public record StatusWindow(Duration window, Instant since, Map<OrderState, Long> counts, long completed) {

    /** Orders created in the window, in any state. */
    public long created() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }
}
