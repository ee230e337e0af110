package dev.orderflow.consumer;

import java.time.Duration;
import java.util.Optional;

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

    /** How often {@link ConsumeRecordPurger} runs by itself (first run one interval after boot); PT0S turns it off. */
    @WithDefault("PT1H")
    Duration purgeInterval();

    /** Rows deleted per purge transaction; small, so the purge never holds long locks. */
    @WithDefault("500")
    int purgeBatchSize();

    /** Result reports to the status service ({@link ConsumeReporter}, {@link ConsumeReportRelay}). */
    Reporting reporting();

    interface Reporting {

        /**
         * This service's short consumer name ({@code inventory}, {@code sms}, {@code points}): the
         * report's {@code consumer} field and tag. When set, every consumed message produces a
         * report (DONE, REJECTED, or DEAD_LETTERED for a permanent failure); when unset (the status
         * service), nothing is reported, and the outbox holds only what the application puts there
         * ({@link ConsumeReporter#enqueue}).
         */
        Optional<String> consumer();

        /**
         * Whether this instance runs the relay that sends the outbox through channel
         * {@code consume-reports} (to {@code order_result_topic} unless the service points the channel
         * elsewhere). Rows are written either way; an instance that does not relay leaves its rows to
         * one that does (every relay sweeps the whole outbox, rows are locked with SKIP LOCKED).
         */
        @WithDefault("true")
        boolean relayEnabled();

        /**
         * How often the relay sweeps the outbox for rows nobody handed over to it (written just
         * before a crash or restart, left by a failed send, or written by an instance that does
         * not relay); a sweep takes the rows older than this. The rows of this instance's commits
         * are handed over and sent at once.
         */
        @WithDefault("PT1S")
        Duration sweepInterval();

        /**
         * How long the relay lets rows it has sent wait before it deletes them: one transaction (a
         * commit, so a flush of MariaDB's log) then serves every round sent meanwhile instead of
         * one per round, which would be half of inventory's and points' commits at 140 orders/s.
         * PT0S deletes after every round. Must be shorter than {@code sweep-interval}: another
         * instance's sweep takes the rows older than that, and would send a sent, undeleted row
         * again. A crash in this window sends those rows twice, which the status service applies
         * once.
         */
        @WithDefault("PT0.2S")
        Duration deleteDelay();

        /**
         * Reports per RocketMQ batch message (split only if their bodies came near the 4 MiB batch
         * limit), and rows per sweep transaction; a batch's rows are deleted after its SEND_OK.
         */
        @WithDefault("100")
        int batchSize();

        /**
         * Longest wait for the broker's answer to one batch of reports before the relay gives up
         * on this round (its rows stay and are sent on a later round). Exceeds the channel's
         * send-timeout times its retries.
         */
        @WithDefault("PT15S")
        Duration sendTimeout();
    }
}
