package dev.orderflow.consumer;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.hibernate.StatelessSession;
import org.jboss.logging.Logger;

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

    private final StatelessSession rows;
    private final IdempotentConsumerConfig config;
    private final Scheduler scheduler;
    private RetentionPurge timer;

    @Inject
    public ConsumeRecordPurger(StatelessSession rows, IdempotentConsumerConfig config, Scheduler scheduler) {
        this.rows = rows;
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
        // Native: JPA has no DELETE … LIMIT.
        int progress = RetentionPurge.deleteInBatches(batchSize, () -> rows.createNativeMutationQuery(
                "delete from order_event_progress where updated_at < :cutoff limit :limit")
                .setParameter("cutoff", cutoff).setParameter("limit", batchSize).executeUpdate());
        if (progress > 0) {
            LOG.infof("Purged %d order_event_progress rows last updated before %s", progress, cutoff);
        }
        return total;
    }

    /**
     * Deletes up to {@code batchSize} of the oldest records processed before {@code cutoff}, by id:
     * the ids are read first so that the delete locks those rows only. Native: consume_record's id
     * is not mapped ({@link ConsumeRecord}).
     */
    private int deleteBatch(Instant cutoff, int batchSize) {
        List<Long> ids = rows.createNativeQuery("select id from consume_record where processed_at < :cutoff"
                + " order by id limit :limit", Long.class).setParameter("cutoff", cutoff)
                .setParameter("limit", batchSize).getResultList();
        if (ids.isEmpty()) {
            return 0;
        }
        return rows.createNativeMutationQuery("delete from consume_record where id in (:ids)")
                .setParameterList("ids", ids).executeUpdate();
    }
}
