package dev.orderflow.status.security;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rest.problem.Problem;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

/**
 * 401 and 403 of the admin API as {@code application/problem+json} (authentication is lazy,
 * {@code quarkus.http.auth.proactive=false}, so that these reach the REST layer). The 401 keeps
 * the Basic challenge.
 */
public class AdminSecurityProblems {

    /** Realm named in the Basic challenge; the same as the embedded realm's (hashes depend on it). */
    public static final String REALM = "orderflow-admin";

    private final ObjectMapper objectMapper;

    @Inject
    public AdminSecurityProblems(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    @ServerExceptionMapper
    public Response unauthenticated(UnauthorizedException e) {
        return unauthorized("credentials required (HTTP Basic)");
    }

    @ServerExceptionMapper
    public Response badCredentials(AuthenticationFailedException e) {
        return unauthorized("unknown user or wrong password");
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return respond(Problem.of("forbidden", "Forbidden", 403, "your roles do not allow this action"), null);
    }

    private Response unauthorized(String detail) {
        return respond(Problem.of("unauthorized", "Unauthorized", 401, detail), "Basic realm=\"" + REALM + "\"");
    }

    private Response respond(Problem problem, String challenge) {
        String body;
        try {
            body = objectMapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A problem record always serializes", e);
        }
        Response.ResponseBuilder response = Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(body);
        if (challenge != null) {
            response.header(HttpHeaders.WWW_AUTHENTICATE, challenge);
        }
        return response.build();
    }
}
