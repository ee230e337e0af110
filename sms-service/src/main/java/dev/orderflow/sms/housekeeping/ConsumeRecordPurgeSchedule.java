package dev.orderflow.sms.housekeeping;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.orderflow.consumer.ConsumeRecordPurger;
import io.quarkus.scheduler.Scheduled;

/** Runs the pipeline's consume_record purge (see the idempotent-consumer README). */
@ApplicationScoped
public class ConsumeRecordPurgeSchedule {

    private final ConsumeRecordPurger purger;

    @Inject
    public ConsumeRecordPurgeSchedule(ConsumeRecordPurger purger) {
        this.purger = purger;
    }

    @Scheduled(every = "${sms-service.housekeeping.purge-every}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purgeConsumeRecords() {
        purger.purgeExpired();
    }
}
