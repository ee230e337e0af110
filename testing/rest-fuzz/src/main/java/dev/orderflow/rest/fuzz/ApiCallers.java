package dev.orderflow.rest.fuzz;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

import dev.orderflow.tokens.TokenIssuer;

/**
 * REST Assured requests as the tests' callers, each with a bearer token of the test-only issuer
 * that the services' %test profile trusts ({@link TokenIssuer#forTests()}).
 */
public final class ApiCallers {

    /** The issuer the services trust in tests: mint other tokens (expired, other roles) with it. */
    public static final TokenIssuer TOKENS = TokenIssuer.forTests();

    private static final String SERVICE_TOKEN = TOKENS.service("test-suite");

    private ApiCallers() {
    }

    /**
     * A request as another service of the suite, which may call every endpoint except the console's
     * actions: what a test that is not about authorization sends.
     */
    public static RequestSpecification given() {
        return RestAssured.given().auth().oauth2(SERVICE_TOKEN);
    }

    /** The {@code Authorization} header value of {@link #given()}'s caller, for raw clients. */
    public static String serviceAuthorization() {
        return bearer(SERVICE_TOKEN);
    }

    /** The {@code Authorization} header value for {@code token}, for raw clients. */
    public static String bearer(String token) {
        return "Bearer " + token;
    }

    /** A request as customer {@code customerId}. */
    public static RequestSpecification asCustomer(String customerId) {
        return RestAssured.given().auth().oauth2(TOKENS.customer(customerId));
    }

    /** A request as person {@code name} with {@code roles} (viewer, operator, approver, inventory-manager). */
    public static RequestSpecification asUser(String name, String... roles) {
        return RestAssured.given().auth().oauth2(TOKENS.user(name, roles));
    }

    /** A request with this exact bearer token (an expired, forged or foreign one). */
    public static RequestSpecification withToken(String token) {
        return RestAssured.given().auth().oauth2(token);
    }

    /** A request without any credentials. */
    public static RequestSpecification anonymous() {
        return RestAssured.given();
    }
}
