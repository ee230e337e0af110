package dev.orderflow.status.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.orderflow.consumer.ConsumeRecordPurger;
import io.quarkus.scheduler.Scheduled;

/** Deletes expired consume_record rows of this service's groups (the pipeline's purge, scheduled here). */
@ApplicationScoped
public class ConsumeRecordMaintenance {

    private final ConsumeRecordPurger purger;

    @Inject
    public ConsumeRecordMaintenance(ConsumeRecordPurger purger) {
        this.purger = purger;
    }

    @Scheduled(every = "${orderflow.status.consume-record-purge-every}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purgeExpired() {
        purger.purgeExpired();
    }
}
