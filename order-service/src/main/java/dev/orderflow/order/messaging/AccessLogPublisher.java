package dev.orderflow.order.messaging;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Sends one access record per HTTP request to {@code access_log_topic}, oneway.
 *
 * <p>At-most-once on purpose: access records are for analytics, a request must never wait for or
 * fail because of them, so the channel uses {@code send-mode=oneway} (no broker answer) and a
 * full buffer drops the record. Drops are counted in {@code orders_access_log_dropped_total}.
 */
@ApplicationScoped
public class AccessLogPublisher {

    /** Outgoing oneway channel to {@code access_log_topic}. */
    public static final String ACCESS_LOG_CHANNEL = "access-log";

    private static final Logger LOG = Logger.getLogger(AccessLogPublisher.class);

    private final Emitter<String> emitter;
    private final ObjectMapper objectMapper;
    private final Counter dropped;

    @Inject
    public AccessLogPublisher(@Channel(ACCESS_LOG_CHANNEL) @OnOverflow(value = OnOverflow.Strategy.DROP) Emitter<String> emitter,
            ObjectMapper objectMapper, MeterRegistry registry) {
        this.emitter = emitter;
        this.objectMapper = objectMapper;
        this.dropped = Counter.builder("orders.access_log.dropped")
                .description("Access records not handed to the broker client (at-most-once by design)")
                .register(registry);
    }

    /** Hands the record to the oneway channel; never throws, never blocks the request. */
    public void publish(AccessRecord record) {
        try {
            emitter.send(objectMapper.writeValueAsString(record)).whenComplete((ignored, failure) -> {
                if (failure != null) {
                    dropped.increment();
                    LOG.debugf(failure, "Access record lost: %s %s", record.method(), record.path());
                }
            });
        } catch (JsonProcessingException | RuntimeException e) {
            // Best effort by design: count the drop instead of failing the request.
            dropped.increment();
            LOG.debugf(e, "Access record dropped: %s %s", record.method(), record.path());
        }
    }

    /** One HTTP request, as sent to access_log_topic. */
    public record AccessRecord(Instant at, String method, String path, int status, long durationMs,
            String idempotencyKey, String remoteAddress) {
    }
}
