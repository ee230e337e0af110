package dev.orderflow.status.service;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Prometheus meters of committed state changes: {@code orderflow_status_completion_latency_seconds}
 * (a histogram of completed_at − created_at, exported with buckets for percentiles across
 * instances) and {@code orderflow_status_transitions_total{state}}.
 */
@ApplicationScoped
public class CompletionMetrics {

    private final MeterRegistry registry;
    private final Timer completionLatency;

    @Inject
    public CompletionMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.completionLatency = Timer.builder("orderflow.status.completion.latency")
                .description("End-to-end latency of an order: completed_at - created_at")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(10))
                .maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
    }

    void onCommittedChange(@Observes(during = TransactionPhase.AFTER_SUCCESS) OrderStateChanged change) {
        Counter.builder("orderflow.status.transitions")
                .description("Orders that entered a state (as shown by the API)")
                .tag("state", change.state().name())
                .register(registry)
                .increment();
        if (change.completionLatency() != null) {
            completionLatency.record(change.completionLatency().isNegative() ? Duration.ZERO : change.completionLatency());
        }
    }
}
