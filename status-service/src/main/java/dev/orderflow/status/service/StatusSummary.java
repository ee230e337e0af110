package dev.orderflow.status.service;

import java.time.Duration;
import java.util.Map;

import dev.orderflow.status.domain.OrderState;

/**
 * Counts and end-to-end latency.
 *
 * @param counts         opened orders per state (every state present, 0 when none)
 * @param awaitingCreate orders known from reports or a cancel whose create has not arrived
 * @param compensationsPending FAILED orders whose compensation some required consumer has not applied yet
 * @param latency        completed_at − created_at over the recent completions
 */
public record StatusSummary(Map<OrderState, Long> counts, long awaitingCreate, long compensationsPending,
        Latency latency) {

    /**
     * Nearest-rank percentiles in milliseconds; null when there were no samples.
     *
     * @param window  completions within this window count
     * @param samples how many completions were used
     */
    public record Latency(Duration window, int samples, Long p50Ms, Long p90Ms, Long p99Ms, Long maxMs) {
    }
}
