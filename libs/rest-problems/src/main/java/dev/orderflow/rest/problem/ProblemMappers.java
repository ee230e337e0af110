package dev.orderflow.rest.problem;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Every error response of a service's API as {@code application/problem+json}, never with a stack trace.
 *
 * <p>A service adds mappers for its own exceptions next to these. To answer unexpected errors its
 * own way it declares a {@code Throwable} mapper with a smaller {@code priority} than
 * {@link jakarta.ws.rs.Priorities#USER} (the smaller value wins), and can reuse
 * {@link ProblemResponses} and {@link DatabaseErrors}.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    /** Seconds a client should wait before retrying after a 503. */
    static final int RETRY_AFTER_SECONDS = 5;

    private final ObjectMapper objectMapper;

    @Inject
    public ProblemMappers(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return ProblemResponses.of(objectMapper, e.problem());
    }

    /** Framework errors: unknown path (404), method (405), content type (415), Accept (406). */
    @ServerExceptionMapper
    public Response framework(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e);
        }
        String title = e.getResponse().getStatusInfo().getReasonPhrase();
        String detail = status == 415 ? "Content-Type must be application/json" : title;
        return ProblemResponses.of(objectMapper, Problem.of("http-" + status, title, status, detail));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (DatabaseErrors.isUnavailable(e)) {
            LOG.warnf("Database unavailable, request refused: %s", e.getMessage());
            return ProblemResponses.retryAfter(objectMapper, Problem.of("database-unavailable", "Database unavailable",
                    503, "The database is unavailable; nothing was written. Retry later."), RETRY_AFTER_SECONDS);
        }
        LOG.error("Unexpected error", e);
        return ProblemResponses.of(objectMapper,
                Problem.of("internal-error", "Internal error", 500, "The request could not be processed."));
    }
}
