package dev.orderflow.rest.problem;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Every error response of a service's API as {@code application/problem+json}, never with a stack trace. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    /** Seconds a client should wait before retrying after a 503. */
    private static final int RETRY_AFTER_SECONDS = 5;

    private final ObjectMapper objectMapper;

    @Inject
    public ProblemMappers(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return respond(e.problem());
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
        return respond(Problem.of("http-" + status, title, status, detail));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (isDatabaseUnavailable(e)) {
            LOG.warnf("Database unavailable, request refused: %s", e.getMessage());
            return Response.fromResponse(respond(Problem.of("database-unavailable", "Database unavailable", 503,
                    "The database is unavailable; nothing was written. Retry later.")))
                    .header("Retry-After", RETRY_AFTER_SECONDS)
                    .build();
        }
        LOG.error("Unexpected error", e);
        return respond(Problem.of("internal-error", "Internal error", 500, "The request could not be processed."));
    }

    private Response respond(Problem problem) {
        String body;
        try {
            body = objectMapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A problem record always serializes", e);
        }
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(body).build();
    }

    /** Connection refused/lost or no connection from the pool in time. */
    static boolean isDatabaseUnavailable(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SQLTransientConnectionException || c instanceof SQLNonTransientConnectionException
                    || c instanceof org.hibernate.exception.JDBCConnectionException) {
                return true;
            }
            if (c instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
            if (c instanceof SQLException sql && String.valueOf(sql.getMessage()).contains("Acquisition timeout")) {
                return true;
            }
        }
        return false;
    }
}
