package dev.orderflow.status.dashboard;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.oidc.TenantResolver;
import io.quarkus.oidc.runtime.OidcUtils;
import io.vertx.ext.web.RoutingContext;

/**
 * Picks the OIDC tenant of each request: {@link DashboardSignIn#TENANT} for the dashboard's session
 * and login path ({@link DashboardSignIn#handles}), the default (bearer) tenant for everything else.
 * A resolver rather than {@code tenant-paths} or {@code @Tenant}: the same API paths serve both
 * tenants, and what decides is the credential the request carries, not its path.
 */
@ApplicationScoped
public class DashboardTenantResolver implements TenantResolver {

    private final DashboardSignIn signIn;

    @Inject
    public DashboardTenantResolver(DashboardSignIn signIn) {
        this.signIn = signIn;
    }

    /**
     * Never null: with null Quarkus goes on to its other resolvers, one of which selects a tenant
     * whose id is a segment of the path, so {@code /dashboard/session} with a bearer token would get
     * the code flow's tenant.
     */
    @Override
    public String resolve(RoutingContext context) {
        return signIn.handles(context.request()) ? DashboardSignIn.TENANT : OidcUtils.DEFAULT_TENANT_ID;
    }
}
