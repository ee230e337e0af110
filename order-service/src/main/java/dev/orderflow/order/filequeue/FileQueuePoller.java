package dev.orderflow.order.filequeue;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.order.rest.OrderRequests;
import dev.orderflow.order.service.OrderService;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Runs the file queue when {@code orderflow.file-queue.enabled=true}: at start-up creates the
 * folders, refuses to start when they are not on one filesystem, puts stale files of
 * processing/ back into inbox/, then runs {@code threads} {@link FileQueueWorker}s, each polling
 * every {@code poll-every} on its own thread. Orders are created by {@link OrderService#create},
 * the REST API's transactional path.
 */
@ApplicationScoped
public class FileQueuePoller {

    private static final Logger LOG = Logger.getLogger(FileQueuePoller.class);

    private final FileQueueConfig config;
    private final OrderService orders;
    private final OrderRequests requests;
    private final MeterRegistry registry;
    private final List<FileQueueWorker> workers = new ArrayList<>();
    private ScheduledExecutorService executor;

    @Inject
    public FileQueuePoller(FileQueueConfig config, OrderService orders, OrderRequests requests, MeterRegistry registry) {
        this.config = config;
        this.orders = orders;
        this.requests = requests;
        this.registry = registry;
    }

    void onStart(@Observes StartupEvent event) {
        if (!config.enabled()) {
            LOG.debug("File queue disabled (orderflow.file-queue.enabled=false)");
            return;
        }
        if (config.threads() < 1 || config.maxFilesPerPoll() < 1) {
            throw new IllegalStateException("orderflow.file-queue.threads and max-files-per-poll must be at least 1");
        }
        FileQueueFolders folders = FileQueueFolders.of(config).open();
        FileQueueMetrics metrics = new FileQueueMetrics(registry);
        Counter tickFailures = Counter.builder("orderflow.file.queue.poll.failures")
                .description("Polls that ended with an unexpected exception (logged)").register(registry);
        FileOrderParser parser = new FileOrderParser(requests);
        String instance = ProcessHandle.current().pid() + "";
        for (int i = 0; i < config.threads(); i++) {
            workers.add(new FileQueueWorker("file-queue-" + instance + "-" + i, folders,
                    FileQueueWorker.Settings.of(config), parser, orders::create, metrics, Clock.systemUTC()));
        }
        int recovered = workers.get(0).recoverStale();
        LOG.infof("File queue on %s (ok flag %s, %d poller thread(s) every %s); %d stale file(s) recovered from "
                + "processing/", folders, config.requireOkFlag() ? "required" : "not required", config.threads(),
                config.pollEvery(), recovered);
        AtomicInteger threadNo = new AtomicInteger();
        executor = new ScheduledThreadPoolExecutor(config.threads(), r -> {
            Thread thread = new Thread(r, "file-queue-poller-" + threadNo.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        });
        long every = config.pollEvery().toMillis();
        for (FileQueueWorker worker : workers) {
            executor.scheduleWithFixedDelay(() -> {
                try {
                    worker.pollOnce();
                } catch (RuntimeException e) {
                    // Keep polling: an exception escaping here would cancel the schedule for good.
                    tickFailures.increment();
                    LOG.errorf(e, "[%s] Poll failed; next poll in %d ms", worker.name(), every);
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
    }

    void onStop(@Observes ShutdownEvent event) throws InterruptedException {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
            LOG.warn("File queue pollers still busy after 30 s; their files stay in processing/ and are recovered "
                    + "after the lease");
            executor.shutdownNow();
        }
    }

    /** The running workers (empty when disabled). */
    public List<FileQueueWorker> workers() {
        return List.copyOf(workers);
    }
}
