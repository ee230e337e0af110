package dev.orderflow.status.dashboard;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/**
 * The dashboard's sign-in with the issuer (OpenID Connect authorization-code flow, OIDC tenant
 * {@value #TENANT}) and which requests it authenticates: those without an {@code Authorization}
 * header that carry the tenant's session cookie, and the login path. Every other request is the
 * bearer (service) tenant's, as if the code flow did not exist; with the tenant disabled, all are.
 */
@ApplicationScoped
public class DashboardSignIn {

    /** The OIDC tenant of the code flow ({@code quarkus.oidc.dashboard.*}). */
    public static final String TENANT = "dashboard";
    /** Redirects to the issuer without a session; the issuer redirects back here with the code. */
    public static final String LOGIN_PATH = "/dashboard/login";
    /** Ends the session: Quarkus removes the cookie and sends the browser to the issuer's end-session endpoint. */
    public static final String LOGOUT_PATH = "/dashboard/logout";
    /** The session cookie Quarkus names after the tenant (chunks of a large one add {@code _chunk_<n>}). */
    public static final String SESSION_COOKIE = "q_session_" + TENANT;
    /**
     * The header a state-changing request authenticated by the session cookie must carry (any value; the
     * page sends {@code 1}). A cross-site form cannot send it, and a cross-origin script cannot without a
     * CORS preflight, which this service never grants.
     */
    public static final String CSRF_HEADER = "X-Orderflow-Dashboard";

    private final boolean enabled;

    @Inject
    public DashboardSignIn(@ConfigProperty(name = "quarkus.oidc.dashboard.tenant-enabled", defaultValue = "false") boolean enabled) {
        this.enabled = enabled;
    }

    /** Whether the code flow is configured (the tenant is enabled). */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Whether {@code request} is the dashboard tenant's: the code flow is on, the request has no
     * {@code Authorization} header (a bearer token always wins), and it carries the session cookie or
     * asks for the login path.
     */
    public boolean handles(HttpServerRequest request) {
        if (!enabled || request.headers().contains(HttpHeaders.AUTHORIZATION)) {
            return false;
        }
        return LOGIN_PATH.equals(request.path())
                || request.headers().getAll(HttpHeaders.COOKIE).stream().anyMatch(DashboardSignIn::hasSessionCookie);
    }

    /** Whether a {@code Cookie} header value holds the dashboard's session cookie (or a chunk of it). */
    public static boolean hasSessionCookie(String cookieHeader) {
        if (cookieHeader == null) {
            return false;
        }
        for (String cookie : cookieHeader.split(";")) {
            String name = cookie.strip();
            int equals = name.indexOf('=');
            name = equals < 0 ? name : name.substring(0, equals);
            if (name.equals(SESSION_COOKIE) || name.startsWith(SESSION_COOKIE + "_chunk_")) {
                return true;
            }
        }
        return false;
    }
}
