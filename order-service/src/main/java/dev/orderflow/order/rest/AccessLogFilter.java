package dev.orderflow.order.rest;

import java.time.Instant;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import dev.orderflow.order.messaging.AccessLogPublisher;
import io.vertx.core.http.HttpServerRequest;

/** One access record per API request, sent oneway (see {@link AccessLogPublisher}). */
public class AccessLogFilter {

    private static final String STARTED_AT = AccessLogFilter.class.getName() + ".startedAt";

    private final AccessLogPublisher publisher;

    @Inject
    public AccessLogFilter(AccessLogPublisher publisher) {
        this.publisher = publisher;
    }

    @ServerRequestFilter(preMatching = true)
    public void start(ContainerRequestContext request) {
        request.setProperty(STARTED_AT, System.nanoTime());
    }

    @ServerResponseFilter
    public void finish(ContainerRequestContext request, ContainerResponseContext response, HttpServerRequest http) {
        Object startedAt = request.getProperty(STARTED_AT);
        long durationMs = startedAt instanceof Long nanos ? (System.nanoTime() - nanos) / 1_000_000 : -1;
        publisher.publish(new AccessLogPublisher.AccessRecord(Instant.now(), request.getMethod(),
                request.getUriInfo().getPath(), response.getStatus(), durationMs,
                request.getHeaderString(OrderResource.IDEMPOTENCY_KEY_HEADER),
                http.remoteAddress() == null ? null : http.remoteAddress().hostAddress()));
    }
}
