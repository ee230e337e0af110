package dev.orderflow.status.rest;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.service.StatusSummary;

/**
 * The body of {@code GET /status/summary}:
 * {@code {"counts":{"PENDING":0,"COMPLETED":0,"FAILED":0,"CANCELLED":0,"ATTENTION":0},"awaitingCreate":0,
 * "compensationsPending":0,"latency":{"window":"PT15M","samples":0,"p50Ms":null,"p90Ms":null,"p99Ms":null,
 * "maxMs":null}}}. {@code compensationsPending}: FAILED orders some required consumer has not
 * compensated yet.
 */
@JsonPropertyOrder({ "counts", "awaitingCreate", "compensationsPending", "latency" })
public record StatusSummaryBody(Map<OrderState, Long> counts, long awaitingCreate, long compensationsPending,
        LatencyBody latency) {

    static StatusSummaryBody of(StatusSummary summary) {
        StatusSummary.Latency l = summary.latency();
        return new StatusSummaryBody(summary.counts(), summary.awaitingCreate(), summary.compensationsPending(),
                new LatencyBody(l.window().toString(), l.samples(), l.p50Ms(), l.p90Ms(), l.p99Ms(), l.maxMs()));
    }

    /** completed_at − created_at of the completions in the window, milliseconds; null without samples. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({ "window", "samples", "p50Ms", "p90Ms", "p99Ms", "maxMs" })
    public record LatencyBody(String window, int samples, Long p50Ms, Long p90Ms, Long p99Ms, Long maxMs) {
    }
}
