package dev.orderflow.order.rest;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLNonTransientConnectionException;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.order.service.IdempotencyKeyReusedException;
import dev.orderflow.order.service.OrderAlreadyCancelledException;
import dev.orderflow.order.service.OrderNotFoundException;
import dev.orderflow.rocketmq.RocketMQSendException;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;

/** Every error response of the API as {@code application/problem+json}, never with a stack trace. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    private final ObjectMapper objectMapper;
    private final int retryAfterSeconds;

    @Inject
    public ProblemMappers(ObjectMapper objectMapper, OrderServiceConfig config) {
        this.objectMapper = objectMapper;
        this.retryAfterSeconds = config.messaging().retryAfterSeconds();
    }

    @ServerExceptionMapper
    public Response invalid(ProblemException e) {
        return respond(e.problem());
    }

    @ServerExceptionMapper
    public Response notFound(OrderNotFoundException e) {
        return respond(Problem.of("order-not-found", "Order not found", 404, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response alreadyCancelled(OrderAlreadyCancelledException e) {
        return respond(Problem.of("order-already-cancelled", "Order already cancelled", 409, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response keyReused(IdempotencyKeyReusedException e) {
        return respond(Problem.of("idempotency-key-reused", "Idempotency-Key reused with a different request", 422,
                e.getMessage()));
    }

    @ServerExceptionMapper
    public Response brokerUnavailable(RocketMQSendException e) {
        LOG.warnf("Broker unavailable, request refused: %s", e.getMessage());
        return unavailable("broker-unavailable", "Message broker unavailable",
                "The order could not be published; nothing was written. Retry later.");
    }

    @ServerExceptionMapper
    public Response outcomeUnknown(RocketMQTransactionUnknownException e) {
        LOG.warnf(e, "Local transaction outcome unknown; the broker's check-back settles it");
        return unavailable("outcome-unknown", "Outcome unknown",
                "The database did not confirm the change. Retry with the same Idempotency-Key to get the result.");
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
            return unavailable("database-unavailable", "Database unavailable",
                    "The order database is unavailable; nothing was written. Retry later.");
        }
        if (e instanceof RocketMQSendException send) {
            return brokerUnavailable(send);
        }
        LOG.error("Unexpected error", e);
        return respond(Problem.of("internal-error", "Internal error", 500, "The request could not be processed."));
    }

    private Response unavailable(String kind, String title, String detail) {
        return Response.fromResponse(respond(Problem.of(kind, title, 503, detail)))
                .header("Retry-After", retryAfterSeconds)
                .build();
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
