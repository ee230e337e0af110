package dev.orderflow.status.dashboard;

import java.util.Set;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemResponses;

/**
 * Cross-site request forgery: the session cookie is {@code SameSite=Strict}, so a browser does not
 * send it with a request another site starts; in addition, a state-changing request (any method but
 * GET, HEAD, OPTIONS) that the session cookie would authenticate must carry
 * {@link DashboardSignIn#CSRF_HEADER}, else 403 problem {@code csrf-header-missing} before anything
 * runs. That covers what SameSite does not: another origin of the same site (a sibling subdomain)
 * and browsers that ignore the attribute. A request with an {@code Authorization} header is the
 * bearer tenant's and needs no such header: no browser adds a bearer token by itself.
 */
public class DashboardCsrfFilter {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final DashboardSignIn signIn;
    private final ObjectMapper objectMapper;

    @Inject
    public DashboardCsrfFilter(DashboardSignIn signIn, ObjectMapper objectMapper) {
        this.signIn = signIn;
        this.objectMapper = objectMapper;
    }

    @ServerRequestFilter(preMatching = true)
    public Response requireHeaderWithSession(ContainerRequestContext request) {
        if (!signIn.enabled() || SAFE_METHODS.contains(request.getMethod())
                || request.getHeaderString(HttpHeaders.AUTHORIZATION) != null
                || !DashboardSignIn.hasSessionCookie(request.getHeaderString(HttpHeaders.COOKIE))) {
            return null;
        }
        String marker = request.getHeaderString(DashboardSignIn.CSRF_HEADER);
        if (marker != null && !marker.isBlank()) {
            return null;
        }
        return ProblemResponses.of(objectMapper, Problem.of("csrf-header-missing", "Forbidden", 403,
                "a request signed in with the dashboard's session must carry the header " + DashboardSignIn.CSRF_HEADER));
    }
}
