package dev.orderflow.rocketmq.runtime;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;

/**
 * The meters one channel registered in the global registry, removed together when the channel
 * closes. The registry outlives the application: an application started again in the same JVM
 * (tests with another profile, dev mode) would otherwise keep the stopped channel's meters, and a
 * gauge would keep reading its stopped consumer.
 */
final class ChannelMeters {

    private final List<Meter> registered = new ArrayList<>();

    /** Keeps {@code meter} for {@link #removeAll()}; returns it. */
    synchronized <M extends Meter> M add(M meter) {
        registered.add(meter);
        return meter;
    }

    synchronized void removeAll() {
        registered.forEach(Metrics.globalRegistry::remove);
        registered.clear();
    }
}
