package dev.orderflow.status.dashboard;

import java.util.List;

import jakarta.annotation.security.PermitAll;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemResponses;
import dev.orderflow.security.SecurityProblems;
import io.quarkus.security.Authenticated;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticator;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * The dashboard's sign-in: which logins this deployment offers, who the page is signed in as, and the
 * issuer's login and logout (OpenID Connect authorization-code flow, {@link DashboardSignIn}). Only
 * {@link DashboardSignIn#LOGIN_PATH} ever redirects to the issuer; every other call without
 * credentials is the usual 401 problem.
 */
@Path("/dashboard")
@Produces(MediaType.APPLICATION_JSON)
public class DashboardSessionResource {

    /** What the page offers: the token form always, "Sign in" when the code flow is configured. */
    public record LoginMethods(boolean token, boolean codeFlow, String login, String logout) {
    }

    /** Who the caller is: the principal name (as in requests and the audit) and its roles, sorted. */
    public record Session(String subject, List<String> roles) {
    }

    private static final String DASHBOARD_PAGE = "/dashboard/";

    private final DashboardSignIn signIn;
    private final SecurityIdentity identity;
    private final SecurityProblems securityProblems;
    private final ObjectMapper objectMapper;

    @Inject
    public DashboardSessionResource(DashboardSignIn signIn, SecurityIdentity identity, SecurityProblems securityProblems,
            ObjectMapper objectMapper) {
        this.signIn = signIn;
        this.identity = identity;
        this.securityProblems = securityProblems;
        this.objectMapper = objectMapper;
    }

    @GET
    @Path("/login-methods")
    @PermitAll
    @Operation(summary = "How the dashboard can sign in", description = "token: a pasted bearer token (always); "
            + "codeFlow: the issuer's login at the login path (when configured). Needs no credentials.")
    public LoginMethods loginMethods() {
        return new LoginMethods(true, signIn.enabled(), signIn.enabled() ? DashboardSignIn.LOGIN_PATH : null,
                signIn.enabled() ? DashboardSignIn.LOGOUT_PATH : null);
    }

    @GET
    @Path("/session")
    @Authenticated
    @Operation(summary = "Who the caller is", description = "The subject and roles of the dashboard's session "
            + "cookie, or of the bearer token sent instead. 401 problem without either.")
    public Session session() {
        return new Session(identity.getPrincipal().getName(), identity.getRoles().stream().sorted().toList());
    }

    /**
     * Without a session: 302 to the issuer's login (with a code-flow state cookie). The issuer sends
     * the browser back here with the code; Quarkus exchanges it, sets the session cookie, and this
     * answers 303 to the dashboard. With a bearer token there is nothing to sign in to: 303 as well.
     */
    @GET
    @Path("/login")
    @Authenticated
    @Operation(summary = "Sign in with the issuer (browser navigation)", description = "Redirects to the issuer's "
            + "login when signed out, then back to the dashboard with a session cookie. 404 problem "
            + "code-flow-login-off when the code flow is not configured.")
    @APIResponse(responseCode = "302", description = "Signed out: to the issuer's login (state cookie set)")
    @APIResponse(responseCode = "303", description = "Signed in (or a bearer token sent): Location /dashboard/")
    @APIResponse(responseCode = "404", description = "Signed out and the code flow is not configured (problem+json)")
    public Response login() {
        return toDashboard();
    }

    /**
     * With a session Quarkus answers this path itself (logout.path): it removes the session cookie and
     * redirects to the issuer's end-session endpoint, which returns to the dashboard. Reached only
     * without one: 303 to the dashboard.
     */
    @GET
    @Path("/logout")
    @Authenticated
    @Operation(summary = "Sign out of the issuer (browser navigation)", description = "Ends the session and the "
            + "issuer's session, then back to the dashboard; without a session straight back to the dashboard.")
    @APIResponse(responseCode = "302", description = "With a session: cookie removed, to the issuer's end-session endpoint")
    @APIResponse(responseCode = "303", description = "Without a session: Location /dashboard/")
    public Response logout() {
        return toDashboard();
    }

    /** No credentials: the issuer's login on the login path, the dashboard on the logout path, else the usual 401. */
    @ServerExceptionMapper
    public Uni<Response> unauthenticated(UnauthorizedException e, RoutingContext context) {
        String path = context.normalizedPath();
        if (DashboardSignIn.LOGOUT_PATH.equals(path)) {
            return Uni.createFrom().item(toDashboard());
        }
        if (!DashboardSignIn.LOGIN_PATH.equals(path)) {
            return Uni.createFrom().item(securityProblems.unauthenticated(e));
        }
        if (!signIn.enabled()) {
            return Uni.createFrom().item(ProblemResponses.of(objectMapper, Problem.of("code-flow-login-off",
                    "Not found", 404, "signing in with the issuer is not configured here: log in with a bearer token")));
        }
        HttpAuthenticator authenticator = context.get(HttpAuthenticator.class.getName());
        return authenticator.getChallenge(context).map(challenge -> {
            Response.ResponseBuilder response = Response.status(challenge.status).header(HttpHeaders.CACHE_CONTROL, "no-store");
            challenge.getHeaders().forEach((name, value) -> response.header(name.toString(), value));
            return response.build();
        });
    }

    private static Response toDashboard() {
        return Response.status(Response.Status.SEE_OTHER).header(HttpHeaders.LOCATION, DASHBOARD_PAGE).build();
    }
}
