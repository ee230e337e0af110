package dev.orderflow.security;

import java.util.Optional;
import java.util.function.Predicate;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The caller of the current request as its token describes it, and the ownership rule every
 * service applies: a customer sees its own data only; staff and services see everyone's.
 */
@RequestScoped
public class Caller {

    /** The claim of a customer token naming the customer it acts for. */
    public static final String CUSTOMER_ID_CLAIM = "customer_id";

    private final SecurityIdentity identity;

    @Inject
    public Caller(SecurityIdentity identity) {
        this.identity = identity;
    }

    /** Who, for logs and audits: the token's subject. */
    public String name() {
        return identity.getPrincipal().getName();
    }

    /** Whether the caller may see any customer's data (staff or another service). */
    public boolean seesEveryCustomer() {
        return identity.hasRole(Roles.SERVICE) || Roles.STAFF.stream().anyMatch(identity::hasRole);
    }

    /**
     * The customer a customer token acts for; empty for staff and services, and for a customer
     * token without the claim (which then owns nothing).
     */
    public Optional<String> customerId() {
        if (!identity.hasRole(Roles.CUSTOMER) || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Optional.empty();
        }
        // quarkus-oidc's principal answers from its claims directly; JsonWebToken.getClaim builds and
        // throws an exception for every claim name the MicroProfile JWT spec does not list.
        Object claim = token instanceof OidcJwtCallerPrincipal oidc ? oidc.getClaims().getClaimValue(CUSTOMER_ID_CLAIM)
                : token.getClaim(CUSTOMER_ID_CLAIM);
        String id = claim == null ? null : claim.toString();
        return id == null || id.isBlank() ? Optional.empty() : Optional.of(stripQuotes(id));
    }

    /** Whether the caller may see data of {@code customerId}: its own, or anyone's for staff and services. */
    public boolean mayRead(String customerId) {
        return readableCustomers().test(customerId);
    }

    /**
     * The same rule as a value that needs no request any more: for work that finishes on another
     * thread (a long poll), taken while the request is being handled.
     */
    public Predicate<String> readableCustomers() {
        if (seesEveryCustomer()) {
            return customerId -> true;
        }
        String own = customerId().orElse(null);
        return customerId -> own != null && own.equals(customerId);
    }

    /** A JSON string claim may come back with its quotes (JsonString.toString()). */
    private static String stripQuotes(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }
}
