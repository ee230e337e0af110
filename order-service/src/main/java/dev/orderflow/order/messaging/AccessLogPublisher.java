package dev.orderflow.order.messaging;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
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
 * or fail because of them. A record joins a bounded in-memory queue and the request goes on. One
 * batch is in flight at a time: when it is answered, everything that queued meanwhile (up to
 * {@code order-service.access-log.batch-size}) goes out as the next batch, one broker request for
 * many records. So an idle service sends each record at once, and a busy one sends one request per
 * broker round trip instead of one per HTTP request. A full queue, a failed send and the records
 * still queued at shutdown are dropped and counted in {@code orders_access_log_dropped_total}.
 */
@ApplicationScoped
@Startup // registers orders_access_log_dropped_total at start, so it reads 0 before the first request
public class AccessLogPublisher {

    /** Outgoing {@code async} channel to {@code access_log_topic}. */
    public static final String ACCESS_LOG_CHANNEL = "access-log";

    private static final Logger LOG = Logger.getLogger(AccessLogPublisher.class);
    private static final OutgoingRocketMQMetadata NO_SETTINGS = OutgoingRocketMQMetadata.builder().build();

    private final Emitter<Object> emitter;
    private final ObjectMapper objectMapper;
    private final Counter dropped;
    private final BlockingQueue<String> queued;
    private final int batchSize;
    private final AtomicBoolean batchInFlight = new AtomicBoolean();

    @Inject
    public AccessLogPublisher(@Channel(ACCESS_LOG_CHANNEL) Emitter<Object> emitter, ObjectMapper objectMapper,
            MeterRegistry registry, OrderServiceConfig config) {
        OrderServiceConfig.AccessLog settings = config.accessLog();
        if (settings.queueSize() < 1 || settings.batchSize() < 1) {
            throw new IllegalArgumentException("order-service.access-log.queue-size and .batch-size must be at least 1, not "
                    + settings.queueSize() + " and " + settings.batchSize());
        }
        this.emitter = emitter;
        this.objectMapper = objectMapper;
        this.queued = new ArrayBlockingQueue<>(settings.queueSize());
        this.batchSize = settings.batchSize();
        this.dropped = Counter.builder("orders.access_log.dropped")
                .description("Access records not stored by the broker (at-most-once by design)")
                .register(registry);
    }

    /** Queues the record for the next batch; never throws, never blocks the request. */
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
            return;
        }
        sendQueued();
    }

    /** Sends what is queued as one batch unless a batch is in flight (its answer calls this again). */
    private void sendQueued() {
        while (!queued.isEmpty() && batchInFlight.compareAndSet(false, true)) {
            List<String> batch = new ArrayList<>(Math.min(batchSize, queued.size()));
            queued.drainTo(batch, batchSize);
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

    private CompletableFuture<Void> answered(Throwable failure, int records) {
        if (failure != null) {
            dropped.increment(records);
            LOG.debugf(failure, "%d access records lost", records);
        }
        batchInFlight.set(false);
        sendQueued();
        return CompletableFuture.completedFuture(null);
    }

    /** Records still queued when the service stops are not sent: count them. */
    @PreDestroy
    void countUnsent() {
        List<String> unsent = new ArrayList<>();
        queued.drainTo(unsent);
        if (!unsent.isEmpty()) {
            dropped.increment(unsent.size());
            LOG.infof("%d access records not sent at shutdown", unsent.size());
        }
    }

    /** One HTTP request, as sent to access_log_topic. */
    public record AccessRecord(Instant at, String method, String path, int status, long durationMs,
            String idempotencyKey, String remoteAddress) {
    }
}
