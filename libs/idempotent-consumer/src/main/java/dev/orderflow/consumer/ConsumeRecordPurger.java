package dev.orderflow.consumer;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import dev.orderflow.sql.BatchSql;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduler;

/**
 * Deletes consume_record rows (and {@link CancelBeforeCreateGuard}'s order_event_progress rows)
 * older than {@link IdempotentConsumerConfig#retention()}, one small batch per transaction so the
 * purge never holds many locks. Runs by itself every {@link IdempotentConsumerConfig#purgeInterval()}
 * from boot (a job of Quarkus' scheduler, {@link RetentionPurge}), so no service has to schedule it.
 */
@ApplicationScoped
public class ConsumeRecordPurger {

    private static final Logger LOG = Logger.getLogger(ConsumeRecordPurger.class);

    private final DataSource dataSource;
    private final IdempotentConsumerConfig config;
    private final Scheduler scheduler;
    private RetentionPurge timer;

    @Inject
    public ConsumeRecordPurger(DataSource dataSource, IdempotentConsumerConfig config, Scheduler scheduler) {
        this.dataSource = dataSource;
        this.config = config;
        this.scheduler = scheduler;
    }

    void start(@Observes StartupEvent event) {
        timer = RetentionPurge.schedule(scheduler, "consume-record-purge", config.purgeInterval(), this::purgeExpired);
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer != null) {
            timer.cancel();
        }
    }

    /** Deletes every row older than the configured retention; returns how many were deleted. */
    public int purgeExpired() {
        return purgeProcessedBefore(Instant.now().minus(config.retention()));
    }

    /** Deletes rows processed before {@code cutoff} in batches of the configured size; returns the count. */
    public int purgeProcessedBefore(Instant cutoff) {
        int batchSize = config.purgeBatchSize();
        int total = RetentionPurge.deleteInBatches(batchSize, () -> deleteBatch(cutoff, batchSize));
        if (total > 0) {
            LOG.infof("Purged %d consume_record rows processed before %s", total, cutoff);
        }
        // Tombstones of CancelBeforeCreateGuard have the same lifetime as the records they stand beside.
        int progress = RetentionPurge.deleteInBatches(batchSize, () -> BatchSql.update(dataSource,
                "delete from order_event_progress where updated_at < ? limit ?", List.of(cutoff, batchSize)));
        if (progress > 0) {
            LOG.infof("Purged %d order_event_progress rows last updated before %s", progress, cutoff);
        }
        return total;
    }

    private int deleteBatch(Instant cutoff, int batchSize) {
        List<Long> ids = BatchSql.select(dataSource, "select id from consume_record where processed_at < ?"
                + " order by id limit ?", List.of(cutoff, batchSize), row -> row.getLong(1));
        if (ids.isEmpty()) {
            return 0;
        }
        return BatchSql.update(dataSource, "delete from consume_record where id in (" + BatchSql.parameters(ids.size())
                + ")", ids);
    }
}
