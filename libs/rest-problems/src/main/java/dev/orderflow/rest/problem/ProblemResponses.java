package dev.orderflow.rest.problem;

import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Responses carrying a {@link Problem}, for the shared mappers and a service's own ones. */
public final class ProblemResponses {

    private ProblemResponses() {
    }

    /**
     * {@code problem} as an {@code application/problem+json} response with its status. Serialized
     * here with the application's mapper, so the body is the same whatever the negotiated writer.
     */
    public static Response of(ObjectMapper objectMapper, Problem problem) {
        String body;
        try {
            body = objectMapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A problem record always serializes", e);
        }
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(body).build();
    }

    /** As {@link #of}, with a {@code Retry-After} header: for 503 answers the client should retry. */
    public static Response retryAfter(ObjectMapper objectMapper, Problem problem, int retryAfterSeconds) {
        return Response.fromResponse(of(objectMapper, problem)).header("Retry-After", retryAfterSeconds).build();
    }
}
