package dev.orderflow.consumer;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the idempotent-consumer pipeline, under {@code orderflow.idempotent-consumer}. */
@ConfigMapping(prefix = "orderflow.idempotent-consumer")
public interface IdempotentConsumerConfig {

    /**
     * How long consume_record rows are kept. Must exceed the longest time a duplicate can still
     * arrive: the broker's retry window (all reconsume attempts) plus the time an operator may
     * take to re-drive a DLQ message. Older rows are deleted by {@link ConsumeRecordPurger}.
     */
    @WithDefault("P14D")
    Duration retention();

    /** Rows deleted per purge transaction; small, so the purge never holds long locks. */
    @WithDefault("500")
    int purgeBatchSize();
}
