package dev.orderflow.security;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemResponses;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

/**
 * 401 and 403 as {@code application/problem+json}, like every other error of the APIs. They reach
 * the REST layer because authentication is lazy ({@code quarkus.http.auth.proactive=false}): the
 * token is checked when an endpoint's {@code @RolesAllowed} asks for the caller. A 401 carries the
 * Bearer challenge (RFC 6750); it never says which check a bad token failed.
 */
public class SecurityProblems {

    private final ObjectMapper objectMapper;

    @Inject
    public SecurityProblems(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    @ServerExceptionMapper
    public Response unauthenticated(UnauthorizedException e) {
        return unauthorized("Bearer realm=\"orderflow\"", "a bearer token is required (Authorization: Bearer <token>)");
    }

    @ServerExceptionMapper
    public Response badToken(AuthenticationFailedException e) {
        return unauthorized("Bearer realm=\"orderflow\", error=\"invalid_token\"",
                "the bearer token is not valid here (signature, issuer, audience or expiry)");
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return ProblemResponses.of(objectMapper, Problem.of("forbidden", "Forbidden", 403,
                "your roles do not allow this action"));
    }

    private Response unauthorized(String challenge, String detail) {
        return Response.fromResponse(ProblemResponses.of(objectMapper,
                Problem.of("unauthorized", "Unauthorized", 401, detail)))
                .header(HttpHeaders.WWW_AUTHENTICATE, challenge)
                .build();
    }
}
