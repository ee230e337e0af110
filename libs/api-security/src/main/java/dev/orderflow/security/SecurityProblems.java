package dev.orderflow.security;


import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

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

    /** Three base64url parts (the signature may be empty, e.g. {@code alg: none}, which the verification refuses). */
    private static final String BEARER = "Bearer ";

    private final ObjectMapper objectMapper;

    @Inject
    public SecurityProblems(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    /**
     * A bearer credential that is not shaped like a JWT is answered here, before quarkus-oidc reads
     * it: its decoder throws on some (e.g. {@code "..."}), which would come out as a 500.
     */
    @ServerRequestFilter(preMatching = true)
    public Response malformedBearer(ContainerRequestContext request) {
        String authorization = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return isJwtShaped(authorization.substring(BEARER.length()).trim()) ? null : badToken(null);
    }

    /** Three base64url parts separated by dots, the first two not empty (a loop: this runs on every request). */
    static boolean isJwtShaped(String token) {
        int dots = 0;
        int partLength = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '.') {
                if (partLength == 0 || ++dots > 2) {
                    return false;
                }
                partLength = 0;
            } else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
                partLength++;
            } else {
                return false;
            }
        }
        return dots == 2;
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
