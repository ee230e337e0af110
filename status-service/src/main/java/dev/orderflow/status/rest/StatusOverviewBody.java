package dev.orderflow.status.rest;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.service.StatusWindow;

/**
 * The body of {@code GET /status/overview}: what happened in the last 5 minutes and the last hour.
 * {@code {"at":"2026-12-07T12:00:00.000Z","windows":[{"window":"PT5M","since":"2026-12-07T11:55:00.000Z",
 * "created":12,"counts":{"PENDING":1,"ATTENTION":0,"COMPLETED":9,"FAILED":1,"CANCELLED":1},"completed":10},
 * {"window":"PT1H",...}]}}: per window the orders created since {@code since} ({@code created}, and
 * {@code counts} per the state they are in now) and the orders that completed since then
 * ({@code completed}, whenever they were created).
 */
@JsonPropertyOrder({ "at", "windows" })
public record StatusOverviewBody(String at, List<WindowBody> windows) {

    static StatusOverviewBody of(Instant at, List<StatusWindow> windows) {
        return new StatusOverviewBody(ApiTime.format(at), windows.stream().map(w -> new WindowBody(w.window().toString(),
                ApiTime.format(w.since()), w.created(), w.counts(), w.completed())).toList());
    }

    /** One window: its length (ISO-8601), its start, and the figures above. */
    @JsonPropertyOrder({ "window", "since", "created", "counts", "completed" })
    public record WindowBody(String window, String since, long created, Map<OrderState, Long> counts, long completed) {
    }
}
