package dev.orderflow.status.service;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Gauges set from measurements (lag, reconciliation findings) rather than read from live objects.
 * Each is registered on first use and its value held here: Micrometer holds a gauge's object only
 * weakly, so a value nobody else references would read NaN after a garbage collection.
 */
public final class SettableGauges {

    private final MeterRegistry registry;
    private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();

    public SettableGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The value behind gauge {@code name} with {@code tags}; it exports {@code value / divisor}. */
    public AtomicLong gauge(String name, String description, Tags tags, double divisor) {
        return values.computeIfAbsent(name + tags, key -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder(name, value, v -> v.get() / divisor).description(description).tags(tags).register(registry);
            return value;
        });
    }

    /** The value behind gauge {@code name} with {@code tags}, exported as it is. */
    public AtomicLong gauge(String name, String description, Tags tags) {
        return gauge(name, description, tags, 1);
    }
}
