package dev.orderflow.order.filequeue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Meters of the file queue (Prometheus names):
 * {@code orderflow_file_queue_files_seen_total} (files claimed from inbox/),
 * {@code orderflow_file_queue_files_processed_total} (moved to done/),
 * {@code orderflow_file_queue_files_failed_total{class}} (moved to error/),
 * {@code orderflow_file_queue_orders_total{result=created|duplicate}},
 * {@code orderflow_file_queue_move_failures_total{target}} (a claim or a move to done/error failed),
 * {@code orderflow_file_queue_stuck_files} (files waiting for a retried move),
 * {@code orderflow_file_queue_recovered_total} (stale files put back from processing/ to inbox/),
 * {@code orderflow_file_queue_inbox_oldest_age_seconds} (the lag: age of the oldest data file in inbox/).
 */
public class FileQueueMetrics {

    private final MeterRegistry registry;
    private final Counter seen;
    private final Counter processed;
    private final Counter created;
    private final Counter duplicates;
    private final Counter recovered;
    private final AtomicInteger stuck = new AtomicInteger();
    private final AtomicLong oldestAgeMillis = new AtomicLong();

    public FileQueueMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.seen = Counter.builder("orderflow.file.queue.files.seen")
                .description("Files claimed from inbox/ (inbox → processing/)").register(registry);
        this.processed = Counter.builder("orderflow.file.queue.files.processed")
                .description("Files whose orders were created (or already existed) and that reached done/").register(registry);
        this.created = orders("created");
        this.duplicates = orders("duplicate");
        this.recovered = Counter.builder("orderflow.file.queue.recovered")
                .description("Files found in processing/ after their lease and put back into inbox/").register(registry);
        Gauge.builder("orderflow.file.queue.stuck.files", stuck, AtomicInteger::get)
                .description("Files whose move to done/ or error/ failed and is being retried with back-off")
                .register(registry);
        Gauge.builder("orderflow.file.queue.inbox.oldest.age.seconds", oldestAgeMillis, a -> a.get() / 1000.0)
                .description("Age of the oldest data file in inbox/ at the last poll (the file queue's lag); 0 when empty")
                .register(registry);
    }

    private Counter orders(String result) {
        return Counter.builder("orderflow.file.queue.orders").tag("result", result)
                .description("Orders read from files: created, or duplicate (an earlier drop of the same content created it)")
                .register(registry);
    }

    void seen() {
        seen.increment();
    }

    void processed() {
        processed.increment();
    }

    void failed(FailureClass failureClass) {
        Counter.builder("orderflow.file.queue.files.failed").tag("class", failureClass.label())
                .description("Files moved to error/").register(registry).increment();
    }

    void order(boolean wasCreated) {
        (wasCreated ? created : duplicates).increment();
    }

    void recovered() {
        recovered.increment();
    }

    void moveFailed(String target) {
        Counter.builder("orderflow.file.queue.move.failures").tag("target", target)
                .description("Failed claims (target processing) and failed moves to done/ or error/").register(registry)
                .increment();
    }

    void stuckChanged(int delta) {
        stuck.addAndGet(delta);
    }

    void oldestInboxAge(long millis) {
        oldestAgeMillis.set(millis);
    }

    public long oldestInboxAgeMillis() {
        return oldestAgeMillis.get();
    }

    public int stuckFiles() {
        return stuck.get();
    }
}
