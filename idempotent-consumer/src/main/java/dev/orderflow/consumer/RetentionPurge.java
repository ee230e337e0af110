package dev.orderflow.consumer;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.jboss.logging.Logger;

import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * What every retention purge shares: deleting in small transactions until a batch comes back short,
 * and running by itself on one daemon thread. Used by {@link ConsumeRecordPurger} and by services
 * that keep rows of their own for a while (sms-service's outbox).
 */
public final class RetentionPurge {

    private static final Logger LOG = Logger.getLogger(RetentionPurge.class);

    private final ScheduledExecutorService timer;

    private RetentionPurge(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /**
     * Runs {@code purge} every {@code interval} (the first run one interval from now) on a daemon
     * thread named {@code threadName}; a zero interval runs nothing. A run that fails (database
     * unavailable) is logged and the next one catches up.
     */
    public static RetentionPurge schedule(String threadName, Duration interval, Runnable purge) {
        long millis = interval.toMillis();
        if (millis <= 0) {
            return new RetentionPurge(null);
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                purge.run();
            } catch (RuntimeException e) {
                // An exception escaping here would cancel every later run.
                LOG.warnf(e, "%s failed; next try in %s", threadName, interval);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
        return new RetentionPurge(timer);
    }

    /** Stops the runs; one in progress is interrupted (its current transaction rolls back). */
    public void cancel() {
        if (timer != null) {
            timer.shutdownNow();
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
