package dev.orderflow.consumer;

import java.time.Duration;
import java.util.function.IntSupplier;

import org.jboss.logging.Logger;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;

/**
 * What every retention purge shares: deleting in small transactions until a batch comes back short,
 * and running by itself as a job of Quarkus' scheduler. Used by {@link ConsumeRecordPurger} and by
 * services that keep rows of their own for a while (sms-service's outbox).
 */
public final class RetentionPurge {

    private static final Logger LOG = Logger.getLogger(RetentionPurge.class);

    private final Scheduler scheduler;
    private final String name;

    private RetentionPurge(Scheduler scheduler, String name) {
        this.scheduler = scheduler;
        this.name = name;
    }

    /**
     * Runs {@code purge} every {@code interval} (the first run one interval from now) as the
     * scheduler's job {@code name}, on a worker thread, never two runs at once; a zero interval runs
     * nothing. A run that fails (database unavailable) is logged and the next one catches up.
     */
    public static RetentionPurge schedule(Scheduler scheduler, String name, Duration interval, Runnable purge) {
        if (interval.isZero() || interval.isNegative()) {
            return new RetentionPurge(null, name);
        }
        scheduler.newJob(name)
                .setInterval(interval.toString())
                .setDelayed(interval.toString())
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                .setTask(execution -> {
                    try {
                        purge.run();
                    } catch (RuntimeException e) {
                        LOG.warnf(e, "%s failed; next try in %s", name, interval);
                    }
                })
                .schedule();
        return new RetentionPurge(scheduler, name);
    }

    /** Stops the runs (the scheduler also stops them at shutdown). */
    public void cancel() {
        if (scheduler != null) {
            scheduler.unscheduleJob(name);
        }
    }

    /**
     * Calls {@code deleteOneBatch}, each call in a new transaction, until it deletes fewer than
     * {@code batchSize} rows, so that a purge never holds many locks at once.
     *
     * @return the rows deleted in all
     */
    public static int deleteInBatches(int batchSize, IntSupplier deleteOneBatch) {
        int total = 0;
        int deleted;
        do {
            deleted = QuarkusTransaction.requiringNew().call(deleteOneBatch::getAsInt);
            total += deleted;
        } while (deleted >= batchSize);
        return total;
    }
}
