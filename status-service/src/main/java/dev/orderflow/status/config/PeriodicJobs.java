package dev.orderflow.status.config;

import java.time.Duration;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;

/** Periodic jobs whose interval is configuration, where {@code PT0S} (or less) means "off". */
public final class PeriodicJobs {

    private static final Logger LOG = Logger.getLogger(PeriodicJobs.class);

    private PeriodicJobs() {
    }

    /**
     * Runs {@code task} every {@code interval} on a worker thread, skipping a round while the
     * previous one still runs; does nothing (and says so) when the interval is zero or negative.
     *
     * @param property the configuration key of the interval, for the log
     */
    public static void scheduleUnlessOff(Scheduler scheduler, String name, Duration interval, String property,
            Runnable task) {
        if (interval.isZero() || interval.isNegative()) {
            LOG.infof("%s is off (%s=%s)", name, property, interval);
            return;
        }
        scheduler.newJob(name)
                .setInterval(interval.toString())
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                .setTask(execution -> task.run())
                .schedule();
    }
}
