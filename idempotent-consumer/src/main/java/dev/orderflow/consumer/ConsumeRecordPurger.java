package dev.orderflow.consumer;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

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

    private final EntityManager entityManager;
    private final IdempotentConsumerConfig config;
    private final Scheduler scheduler;
    private RetentionPurge timer;

    @Inject
    public ConsumeRecordPurger(EntityManager entityManager, IdempotentConsumerConfig config, Scheduler scheduler) {
        this.entityManager = entityManager;
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
        int total = RetentionPurge.deleteInBatches(batchSize,
                () -> deleteBatch("delete from consume_record where processed_at < ?1 limit ?2", cutoff, batchSize));
        if (total > 0) {
            LOG.infof("Purged %d consume_record rows processed before %s", total, cutoff);
        }
        // Tombstones of CancelBeforeCreateGuard have the same lifetime as the records they stand beside.
        int progress = RetentionPurge.deleteInBatches(batchSize,
                () -> deleteBatch("delete from order_event_progress where updated_at < ?1 limit ?2", cutoff, batchSize));
        if (progress > 0) {
            LOG.infof("Purged %d order_event_progress rows last updated before %s", progress, cutoff);
        }
        return total;
    }

    /** Runs a {@code delete … where <time> < ?1 limit ?2}, in the caller's transaction. */
    private int deleteBatch(String delete, Instant cutoff, int batchSize) {
        // Native: a DELETE with a LIMIT, so that one purge transaction holds few locks, is not JPA.
        return entityManager.createNativeQuery(delete).setParameter(1, cutoff).setParameter(2, batchSize).executeUpdate();
    }
}
