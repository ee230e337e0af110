package dev.orderflow.rest.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import dev.orderflow.tokens.TokenIssuer;

/**
 * Every endpoint of a service × every kind of caller → the status it must answer. A service's test
 * lists one row per operation; {@link #verify()} calls each operation as each caller and fails on
 * any other status, on a 401/403 that is not {@code application/problem+json}, and on an operation
 * of the served OpenAPI document that has no row (a new endpoint must say who may call it).
 */
public final class AccessMatrix {

    /** The callers, in the order a row's statuses are written. */
    public enum Who {
        /** No Authorization header. */
        NO_TOKEN,
        /** A token signed by an untrusted key (every other bad token is in the fuzz corpus). */
        FORGED_TOKEN,
        /** The customer owning the data the row's path names. */
        OWNER,
        /** Another customer. */
        OTHER_CUSTOMER,
        INVENTORY_MANAGER,
        VIEWER,
        OPERATOR,
        APPROVER,
        SERVICE
    }

    private record Row(String method, String template, Function<Who, String> path, String body,
            List<Set<Integer>> statuses) {
    }

    private static final TokenIssuer FORGER = TokenIssuer.inDirectory(forgerDirectory());

    private final String owner;
    private final String otherCustomer;
    private final List<Row> rows = new ArrayList<>();

    /** @param owner the customer whose data the rows' paths name; another customer is derived from it */
    public AccessMatrix(String owner) {
        this.owner = owner;
        this.otherCustomer = owner + "-other";
    }

    /** The other customer's id (for paths and bodies that name it). */
    public String otherCustomer() {
        return otherCustomer;
    }

    /**
     * One operation: its OpenAPI path {@code template}, the concrete path per caller (a fresh
     * resource each where a call changes it), a JSON body or null, and the expected statuses in
     * {@link Who} order, e.g. {@code "401 401 201 403 403 403 403 403 201"}; {@code 200|404} admits
     * either (an answer that depends on what other tests did before, not on who calls).
     */
    public AccessMatrix expect(String method, String template, Function<Who, String> path, String body, String statuses) {
        List<Set<Integer>> parsed = Arrays.stream(statuses.trim().split("\\s+"))
                .map(token -> Arrays.stream(token.split("\\|")).map(Integer::valueOf).collect(Collectors.toSet()))
                .toList();
        if (parsed.size() != Who.values().length) {
            throw new IllegalArgumentException(template + ": " + Who.values().length + " statuses needed, got " + parsed.size());
        }
        rows.add(new Row(method.toUpperCase(Locale.ROOT), template, path, body, parsed));
        return this;
    }

    /** The same with one path for every caller. */
    public AccessMatrix expect(String method, String path, String body, String statuses) {
        return expect(method, path.replaceAll("\\?.*", ""), who -> path, body, statuses);
    }

    /** Calls every row as every caller; fails listing each wrong answer and each operation without a row. */
    public void verify() {
        List<String> wrong = new ArrayList<>();
        for (Row row : rows) {
            for (Who who : Who.values()) {
                String path = row.path().apply(who);
                RequestSpecification request = as(who);
                if (row.body() != null) {
                    request.contentType("application/json").body(row.body());
                }
                Response response = request.request(row.method(), path);
                Set<Integer> expected = row.statuses().get(who.ordinal());
                int status = response.statusCode();
                if (!expected.contains(status)) {
                    wrong.add(row.method() + " " + path + " as " + who + ": " + status + ", expected "
                            + expected + " | " + abbreviate(response.asString()));
                } else if ((status == 401 || status == 403)
                        && !String.valueOf(response.contentType()).startsWith("application/problem+json")) {
                    wrong.add(row.method() + " " + path + " as " + who + ": " + status + " without a problem body");
                }
            }
        }
        assertThat(wrong).as("answers that differ from the access matrix").isEmpty();
        assertThat(rows.stream().map(r -> r.method() + " " + r.template()).toList())
                .as("every operation of the OpenAPI document has a row").containsAll(operations());
    }

    /** The operations ("GET /orders/{orderId}") the service's OpenAPI document lists. */
    private static Set<String> operations() {
        Map<String, Map<String, Object>> paths = RestAssured.given().queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().jsonPath().getMap("paths");
        Set<String> operations = new LinkedHashSet<>();
        paths.forEach((path, methods) -> methods.keySet().stream().filter(m -> !m.equals("parameters"))
                .forEach(m -> operations.add(m.toUpperCase(Locale.ROOT) + " " + path)));
        return operations;
    }

    private RequestSpecification as(Who who) {
        TokenIssuer tokens = ApiCallers.TOKENS;
        return switch (who) {
            case NO_TOKEN -> RestAssured.given();
            case FORGED_TOKEN -> ApiCallers.withToken(FORGER.service("forged"));
            case OWNER -> ApiCallers.asCustomer(owner);
            case OTHER_CUSTOMER -> ApiCallers.asCustomer(otherCustomer);
            case INVENTORY_MANAGER -> ApiCallers.withToken(tokens.user("ivan", "inventory-manager"));
            case VIEWER -> ApiCallers.withToken(tokens.user("vera", "viewer"));
            case OPERATOR -> ApiCallers.withToken(tokens.user("otto", "operator"));
            case APPROVER -> ApiCallers.withToken(tokens.user("bert", "approver"));
            case SERVICE -> ApiCallers.given();
        };
    }

    private static Path forgerDirectory() {
        try {
            return Files.createTempDirectory("orderflow-forger");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
