package dev.orderflow.status.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the status service, under {@code orderflow.status}. */
@ConfigMapping(prefix = "orderflow.status")
public interface StatusServiceConfig {

    /**
     * Short names of the consumers whose outcome decides an order's state (the {@code consumer}
     * of their reports, e.g. {@code inventory}). An order is COMPLETED when each of them is DONE
     * for the create. Adding a consumer is a change here (and, if its group is not
     * {@code <name>_group}, under {@link #consumer()}); reports of consumers not listed are kept
     * but do not count.
     */
    @WithDefault("inventory,sms,points")
    List<String> requiredConsumers();

    /** Per-consumer settings, keyed by short name; only needed where the defaults do not fit. */
    Map<String, ConsumerSettings> consumer();

    /** Reading the required consumers' dead-letter queues. */
    DeadLetters deadLetters();

    /** {@code GET /orders/{orderId}/status?wait=...}. */
    LongPoll longPoll();

    /** {@code GET /orders/status}. */
    Listing listing();

    /** {@code GET /status/summary}. */
    Summary summary();

    /** The consumer group of a required consumer: configured, else {@code <name>_group}. */
    default String groupOf(String consumer) {
        ConsumerSettings settings = consumer().get(consumer);
        return settings != null && settings.group().isPresent() ? settings.group().get() : consumer + "_group";
    }

    interface ConsumerSettings {
        /** The consumer's RocketMQ consumer group, whose {@code %DLQ%<group>} is read. Default {@code <name>_group}. */
        Optional<String> group();
    }

    interface DeadLetters {
        /**
         * Whether to read {@code %DLQ%<group>} of every required consumer. Retries-exhausted
         * (system) dead letters are visible nowhere else, so switch it off only in tests.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * This service's consumer group for a dead-letter queue is this prefix + the consumer's
         * short name (one group per queue: a RocketMQ group must subscribe to the same topics on
         * every client).
         */
        @WithDefault("status_dlq_")
        String groupPrefix();

        /** Consumer threads per dead-letter queue (dead letters are rare). */
        @WithDefault("1")
        int consumeThreads();

        /**
         * Where a new dead-letter group starts: {@code first} so that dead letters written before
         * this service first ran are not missed (the pipeline dedupes anything read twice).
         */
        @WithDefault("first")
        String consumeFrom();
    }

    interface LongPoll {
        /** Longest {@code wait} honoured; a longer one is cut to this. */
        @WithDefault("PT30S")
        Duration maxWait();

        /** Most requests waiting at once on this instance; more → 503 with Retry-After. */
        @WithDefault("10000")
        int maxWaiters();

        /**
         * How often one shared query looks for waited-on orders whose state another instance
         * changed (changes committed by this instance wake their waiters at once). Bounds how
         * late such a waiter answers.
         */
        @WithDefault("1s")
        String crossInstanceCheckEvery();
    }

    interface Listing {
        /** Largest {@code size}; larger → 400. */
        @WithDefault("100")
        int maxPageSize();

        /** {@code size} when none is given. */
        @WithDefault("20")
        int defaultPageSize();

        /** Largest {@code page}; deeper offsets → 400 (they cost a scan each). */
        @WithDefault("1000")
        int maxPage();
    }

    interface Summary {
        /** Completions considered for the latency percentiles: those completed within this window. */
        @WithDefault("PT15M")
        Duration latencyWindow();

        /** At most this many of the most recent completions in the window are used. */
        @WithDefault("10000")
        int latencyMaxSamples();
    }
}
