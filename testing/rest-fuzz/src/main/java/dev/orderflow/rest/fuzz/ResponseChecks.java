package dev.orderflow.rest.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** What every answer to a hostile input must satisfy; each check returns the violations it found. */
public final class ResponseChecks {

    /**
     * Text that must never reach a client: stack frames, exception and package names of the
     * runtime, SQL and driver messages. Ignored when the request itself contains it (an error
     * detail may quote the rejected value).
     */
    static final List<String> LEAK_MARKERS = List.of("\tat ", "Exception", "Caused by", "java.", "javax.", "jakarta.",
            "org.hibernate", "org.jboss", "io.quarkus", "io.vertx", "io.netty", "com.fasterxml", "org.mariadb",
            "dev.orderflow", "SQLState", "SQL syntax", "jdbc:", "Hibernate", "Jackson");

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResponseChecks() {
    }

    /** Violations of {@code response} as the answer to {@code fuzzCase}; empty when it is fine. */
    public static List<String> check(FuzzCase fuzzCase, RawResponse response) {
        List<String> violations = new ArrayList<>();
        int status = response.status();
        if (status < 0) {
            // Vert.x may refuse broken framing (e.g. a bad chunk size) by closing the connection.
            if (fuzzCase.expectation() != FuzzCase.Expectation.HTTP_LAYER_4XX) {
                violations.add("no answer: the connection was closed");
            }
            return violations;
        }
        if (status >= 500) {
            violations.add("status " + status + " (a server error)");
        }
        boolean rejected = status >= 400 && status < 500;
        switch (fuzzCase.expectation()) {
            case PROBLEM -> {
                if (!rejected) {
                    violations.add("status " + status + ", expected 4xx");
                }
                violations.addAll(problemBody(response));
            }
            case HTTP_LAYER_4XX -> {
                if (!rejected) {
                    violations.add("status " + status + ", expected 4xx");
                }
            }
            case MAY_ACCEPT -> {
                if (rejected) {
                    violations.addAll(problemBody(response));
                } else if (status < 200 || status >= 300) {
                    violations.add("status " + status + ", expected 2xx or 4xx");
                }
            }
        }
        violations.addAll(leaks(fuzzCase.request(), response));
        return violations;
    }

    /** An RFC 9457 body whose {@code status} is the response status. */
    public static List<String> problemBody(RawResponse response) {
        List<String> violations = new ArrayList<>();
        String contentType = response.header("content-type");
        if (contentType == null || !contentType.startsWith("application/problem+json")) {
            violations.add("content type " + contentType + ", expected application/problem+json");
            return violations;
        }
        try {
            JsonNode problem = JSON.readTree(response.body());
            if (problem == null || !problem.isObject()) {
                violations.add("problem body is not a JSON object");
            } else {
                if (problem.path("status").asInt(-1) != response.status()) {
                    violations.add("problem status " + problem.path("status") + " differs from " + response.status());
                }
                if (!problem.path("type").isTextual() || !problem.path("title").isTextual()) {
                    violations.add("problem without type or title");
                }
            }
        } catch (java.io.IOException e) {
            violations.add("problem body is not JSON: " + e.getMessage());
        }
        return violations;
    }

    /** Leak markers in the answer (headers and body) that the request did not contain. */
    public static List<String> leaks(RawRequest request, RawResponse response) {
        String sent = new String(request.bytes("-"), StandardCharsets.UTF_8)
                + new String(request.bytes("-"), StandardCharsets.ISO_8859_1);
        String answer = response.headers() + "\n" + response.bodyText();
        List<String> violations = new ArrayList<>();
        for (String marker : LEAK_MARKERS) {
            if (answer.contains(marker) && !sent.contains(marker)) {
                violations.add("answer contains '" + marker.replace("\t", "\\t") + "'");
            }
        }
        return violations;
    }
}
