package dev.orderflow.consumer;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import dev.orderflow.sql.BatchSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Deletes consume_record rows (and {@link CancelBeforeCreateGuard}'s order_event_progress rows)
 * older than {@link IdempotentConsumerConfig#retention()}, one small batch per transaction so the
 * purge never holds many locks. Runs by itself every {@link IdempotentConsumerConfig#purgeInterval()}
 * from boot (one daemon thread), so no service has to schedule it.
 */
@ApplicationScoped
public class ConsumeRecordPurger {

    private static final Logger LOG = Logger.getLogger(ConsumeRecordPurger.class);

    private final DataSource dataSource;
    private final IdempotentConsumerConfig config;
    private ScheduledExecutorService timer;

    @Inject
    public ConsumeRecordPurger(DataSource dataSource, IdempotentConsumerConfig config) {
        this.dataSource = dataSource;
        this.config = config;
    }

    void start(@Observes StartupEvent event) {
        long interval = config.purgeInterval().toMillis();
        if (interval <= 0) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "consume-record-purge");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::purgeOnTimer, interval, interval, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    private void purgeOnTimer() {
        try {
            purgeExpired();
        } catch (RuntimeException e) {
            // Database unavailable: the next run catches up; an exception here would cancel the timer.
            LOG.warnf(e, "Purge of consume_record failed; next try in %s", config.purgeInterval());
        }
    }

    /** Deletes every row older than the configured retention; returns how many were deleted. */
    public int purgeExpired() {
        return purgeProcessedBefore(Instant.now().minus(config.retention()));
    }

    /** Deletes rows processed before {@code cutoff} in batches of the configured size; returns the count. */
    public int purgeProcessedBefore(Instant cutoff) {
        int batchSize = config.purgeBatchSize();
        int total = 0;
        int deleted;
        do {
            deleted = QuarkusTransaction.requiringNew().call(() -> deleteBatch(cutoff, batchSize));
            total += deleted;
        } while (deleted == batchSize);
        if (total > 0) {
            LOG.infof("Purged %d consume_record rows processed before %s", total, cutoff);
        }
        int progress = 0;
        do {
            // Tombstones of CancelBeforeCreateGuard have the same lifetime as the records they stand beside.
            deleted = QuarkusTransaction.requiringNew().call(() -> BatchSql.update(dataSource,
                    "delete from order_event_progress where updated_at < ? limit ?", List.of(cutoff, batchSize)));
            progress += deleted;
        } while (deleted == batchSize);
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
