package dev.orderflow.order.messaging;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.rocketmq.OutgoingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/**
 * Sends one access record per HTTP request to {@code access_log_topic}, in batches.
 *
 * <p>At-most-once on purpose: access records are for analytics, and a request must never wait for
 * or fail because of them. A request only serialises its record and puts it in a bounded in-memory
 * queue. A flusher thread sends what is queued every {@code order-service.access-log.flush-interval}
 * as one batch (one broker request for up to {@code batch-size} records), one batch in flight at a
 * time; while more than a batch is waiting, the next batch follows as soon as the previous one is
 * answered. A full queue, a failed batch and records that could not be sent at shutdown are dropped
 * and counted in {@code orders_access_log_dropped_total}.
 */
@ApplicationScoped
@Startup // registers orders_access_log_dropped_total at start, so it reads 0 before the first request
public class AccessLogPublisher {

    /** Outgoing {@code async} channel to {@code access_log_topic}. */
    public static final String ACCESS_LOG_CHANNEL = "access-log";

    private static final Logger LOG = Logger.getLogger(AccessLogPublisher.class);
    private static final OutgoingRocketMQMetadata NO_SETTINGS = OutgoingRocketMQMetadata.builder().build();
    /** A batch stops growing past this many characters (about 1 MiB: the records are mostly ASCII). */
    private static final long BATCH_CHARS = 1 << 20;

    private final Emitter<Object> emitter;
    private final ObjectMapper objectMapper;
    private final Counter dropped;
    private final BlockingQueue<String> queued;
    private final int batchSize;
    private final AtomicBoolean batchInFlight = new AtomicBoolean();
    private final ScheduledExecutorService flusher;

    @Inject
    public AccessLogPublisher(@Channel(ACCESS_LOG_CHANNEL) Emitter<Object> emitter, ObjectMapper objectMapper,
            MeterRegistry registry, OrderServiceConfig config) {
        OrderServiceConfig.AccessLog settings = config.accessLog();
        if (settings.queueSize() < 1 || settings.batchSize() < 1 || settings.flushInterval().toMillis() < 1) {
            throw new IllegalArgumentException("order-service.access-log: queue-size and batch-size must be at least 1"
                    + " and flush-interval at least 1 ms, not " + settings.queueSize() + ", " + settings.batchSize() + " and "
                    + settings.flushInterval());
        }
        this.emitter = emitter;
        this.objectMapper = objectMapper;
        this.queued = new ArrayBlockingQueue<>(settings.queueSize());
        this.batchSize = settings.batchSize();
        this.dropped = Counter.builder("orders.access_log.dropped")
                .description("Access records not stored by the broker (at-most-once by design)")
                .register(registry);
        this.flusher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "access-log-flusher");
            thread.setDaemon(true);
            return thread;
        });
        long intervalMs = settings.flushInterval().toMillis();
        flusher.scheduleWithFixedDelay(this::flush, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    /** Queues the record for the next batch; never throws, never blocks the request, never sends. */
    public void publish(AccessRecord record) {
        String json;
        try {
            json = objectMapper.writeValueAsString(record);
        } catch (JsonProcessingException | RuntimeException e) {
            // Best effort by design: count the drop instead of failing the request.
            dropped.increment();
            LOG.debugf(e, "Access record dropped: %s %s", record.method(), record.path());
            return;
        }
        if (!queued.offer(json)) {
            dropped.increment();
            LOG.debugf("Access record dropped, the queue is full: %s %s", record.method(), record.path());
        }
    }

    /** The flusher's tick (package-private for the unit test); an exception would end the schedule, so it is logged. */
    void flush() {
        try {
            sendQueued();
        } catch (RuntimeException e) {
            LOG.warn("Sending access records failed; trying again at the next tick", e);
        }
    }

    /** Sends what is queued as one batch unless a batch is in flight. */
    private void sendQueued() {
        while (!queued.isEmpty() && batchInFlight.compareAndSet(false, true)) {
            List<String> batch = nextBatch();
            if (batch.isEmpty()) {
                batchInFlight.set(false);
                continue; // another thread took them; look again in case more came meanwhile
            }
            try {
                emitter.send(Message.<Object> of(batch,
                        Metadata.of(OutgoingRocketMQBatchMetadata.of(Collections.nCopies(batch.size(), NO_SETTINGS))))
                        .withAck(() -> answered(null, batch.size()))
                        .withNack(failure -> answered(failure, batch.size())));
            } catch (RuntimeException e) {
                // The emitter refused (e.g. the application is stopping): the batch is lost.
                dropped.increment(batch.size());
                LOG.debugf(e, "%d access records dropped", batch.size());
                batchInFlight.set(false);
                continue;
            }
            return;
        }
    }

    /**
     * Up to {@code batch-size} queued records, and not many more than {@link #BATCH_CHARS} characters: the
     * client refuses a batch over 4 MiB as a whole, and a record can hold a long path and header.
     */
    private List<String> nextBatch() {
        List<String> batch = new ArrayList<>(Math.min(batchSize, queued.size()));
        long chars = 0;
        String record;
        while (batch.size() < batchSize && chars < BATCH_CHARS && (record = queued.poll()) != null) {
            batch.add(record);
            chars += record.length();
        }
        return batch;
    }

    private CompletableFuture<Void> answered(Throwable failure, int records) {
        if (failure != null) {
            dropped.increment(records);
            LOG.debugf(failure, "%d access records lost", records);
        }
        batchInFlight.set(false);
        if (queued.size() >= batchSize) {
            sendQueued(); // a backlog: the next full batch at once rather than at the next tick
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Stops the flusher, hands what is queued to the channel once more, and counts what is left. */
    @PreDestroy
    void stop() {
        flusher.shutdownNow();
        try {
            flusher.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sendQueued();
        List<String> unsent = new ArrayList<>();
        queued.drainTo(unsent);
        if (!unsent.isEmpty()) {
            dropped.increment(unsent.size());
            LOG.infof("%d access records not sent at shutdown (a batch was still in flight)", unsent.size());
        }
    }

    /** One HTTP request, as sent to access_log_topic. */
    public record AccessRecord(Instant at, String method, String path, int status, long durationMs,
            String idempotencyKey, String remoteAddress) {
    }
}
