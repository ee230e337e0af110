package dev.orderflow.sms.outbox;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.consumer.RetentionPurge;
import dev.orderflow.sms.config.SmsServiceConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduler;

/**
 * Deletes finished outbox rows (SENT or FAILED) older than {@code sms-service.outbox.retention}, one
 * small batch per transaction, every {@code sms-service.outbox.purge-interval} from boot. Without it
 * the outbox grows by a row per order event for ever, with every customer's phone number in it.
 */
@ApplicationScoped
public class SmsOutboxPurger {

    private static final Logger LOG = Logger.getLogger(SmsOutboxPurger.class);

    private final SmsOutbox outbox;
    private final SmsServiceConfig.Outbox settings;
    private final Scheduler scheduler;
    private RetentionPurge timer;

    @Inject
    public SmsOutboxPurger(SmsOutbox outbox, SmsServiceConfig config, Scheduler scheduler) {
        this.outbox = outbox;
        this.settings = config.outbox();
        this.scheduler = scheduler;
    }

    void start(@Observes StartupEvent event) {
        if (settings.retention().isNegative() || settings.retention().isZero()) {
            throw new IllegalStateException("sms-service.outbox.retention must be positive, not " + settings.retention());
        }
        if (settings.purgeBatchSize() < 1) {
            throw new IllegalStateException("sms-service.outbox.purge-batch-size must be at least 1, not "
                    + settings.purgeBatchSize());
        }
        if (settings.purgeInterval().isNegative()) {
            throw new IllegalStateException("sms-service.outbox.purge-interval must be PT0S (off) or positive, not "
                    + settings.purgeInterval());
        }
        timer = RetentionPurge.schedule(scheduler, "sms-outbox-purge", settings.purgeInterval(), this::purgeExpired);
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer != null) {
            timer.cancel();
        }
    }

    /** Deletes every finished row older than the retention; returns how many were deleted. */
    public int purgeExpired() {
        return purgeFinishedBefore(Instant.now().minus(settings.retention()));
    }

    /** Deletes finished rows whose last attempt ended before {@code cutoff}; returns the count. */
    public int purgeFinishedBefore(Instant cutoff) {
        int batchSize = settings.purgeBatchSize();
        int purged = RetentionPurge.deleteInBatches(batchSize, () -> outbox.deleteFinishedBefore(cutoff, batchSize));
        if (purged > 0) {
            LOG.infof("Purged %d sent or failed texts whose last attempt ended before %s", purged, cutoff);
        }
        return purged;
    }
}
