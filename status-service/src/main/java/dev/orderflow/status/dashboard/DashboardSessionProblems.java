package dev.orderflow.status.dashboard;

import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemResponses;
import dev.orderflow.security.SecurityProblems;
import io.quarkus.security.AuthenticationCompletionException;
import io.quarkus.security.AuthenticationFailedException;
import io.vertx.core.http.HttpServerRequest;

/**
 * A session cookie that does not authenticate (expired and not renewable, not decryptable, signed
 * with a key the issuer dropped) is a 401 problem like a bad bearer token, saying to sign in again;
 * never a redirect and never a bare 401 (Quarkus' own answer to a failed session check). Requests
 * that are not the dashboard tenant's get {@link SecurityProblems}' answer.
 */
public class DashboardSessionProblems {

    private final DashboardSignIn signIn;
    private final SecurityProblems securityProblems;
    private final ObjectMapper objectMapper;

    @Inject
    public DashboardSessionProblems(DashboardSignIn signIn, SecurityProblems securityProblems, ObjectMapper objectMapper) {
        this.signIn = signIn;
        this.securityProblems = securityProblems;
        this.objectMapper = objectMapper;
    }

    /** Ahead of SecurityProblems' mapper of the same exception. */
    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response sessionNotValid(AuthenticationFailedException e, HttpServerRequest request) {
        return signIn.handles(request) ? signInAgain() : securityProblems.badToken(e);
    }

    @ServerExceptionMapper
    public Response sessionNotCompleted(AuthenticationCompletionException e, HttpServerRequest request) {
        return signIn.handles(request) ? signInAgain() : securityProblems.badToken(null);
    }

    private Response signInAgain() {
        return Response.fromResponse(ProblemResponses.of(objectMapper, Problem.of("unauthorized", "Unauthorized", 401,
                "the dashboard's session is not valid any more (expired or ended): sign in again")))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"orderflow\"")
                .build();
    }
}
