package dev.orderflow.status.security;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.rest.problem.ProblemMappers;
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

    /** Writes the problem bodies exactly as every other error of the API (one home for the format). */
    private final ProblemMappers problems;

    @Inject
    public AdminSecurityProblems(ObjectMapper objectMapper) {
        this.problems = new ProblemMappers(objectMapper);
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
        return problems.problem(new ProblemException(Problem.of("forbidden", "Forbidden", 403,
                "your roles do not allow this action")));
    }

    private Response unauthorized(String detail) {
        return Response.fromResponse(problems.problem(new ProblemException(
                Problem.of("unauthorized", "Unauthorized", 401, detail))))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"" + REALM + "\"")
                .build();
    }
}
