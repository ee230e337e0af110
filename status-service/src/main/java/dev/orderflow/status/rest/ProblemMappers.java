package dev.orderflow.status.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.status.service.OrderStatusNotFoundException;
import dev.orderflow.status.service.TooManyWaitersException;

/** Every error response of the API as {@code application/problem+json}, never with a stack trace. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    /** Seconds a client is asked to wait after a 503. */
    private static final int RETRY_AFTER_SECONDS = 1;

    private final ObjectMapper objectMapper;

    @Inject
    public ProblemMappers(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    @ServerExceptionMapper
    public Response invalid(InvalidParameterException e) {
        return respond(Problem.invalidParameter(e.field(), e.getMessage()));
    }

    @ServerExceptionMapper
    public Response notFound(OrderStatusNotFoundException e) {
        return respond(Problem.of(e.awaitingCreate() ? "order-create-not-received" : "order-not-found",
                e.awaitingCreate() ? "Order create not received yet" : "Order not found", 404, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response tooManyWaiters(TooManyWaitersException e) {
        return Response.fromResponse(respond(Problem.of("too-many-waiters", "Too many waiting requests", 503,
                e.getMessage() + "; retry, or ask without wait"))).header("Retry-After", RETRY_AFTER_SECONDS).build();
    }

    /** Framework errors: unknown path (404), method (405), Accept (406). */
    @ServerExceptionMapper
    public Response framework(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e);
        }
        String title = e.getResponse().getStatusInfo().getReasonPhrase();
        return respond(Problem.of("http-" + status, title, status, title));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
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
}
