package dev.orderflow.sms.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Every error response of the API as {@code application/problem+json}, never with a stack trace. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    private final ObjectMapper objectMapper;

    @Inject
    public ProblemMappers(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    @ServerExceptionMapper
    public Response invalid(InvalidRequestException e) {
        return respond(Problem.of("invalid-request", "Invalid request", 400, e.getMessage()));
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

    /** Serialized here: the JSON body writer is not chosen for application/problem+json. */
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
