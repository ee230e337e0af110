package dev.orderflow.rest.fuzz;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One hostile input and what the service may answer to it.
 *
 * @param endpoint    the endpoint it targets, e.g. {@code POST /orders} (summary lines count per endpoint)
 * @param label       what was done, for failure messages
 * @param request     the request as sent
 * @param expectation the answers allowed
 * @param sentJson    the body as JSON when it is valid JSON (for checking an accepted input), else null
 */
public record FuzzCase(String endpoint, String label, RawRequest request, Expectation expectation, JsonNode sentJson) {

    /** The answers a service may give. */
    public enum Expectation {
        /** Reaches the application: 4xx with an {@code application/problem+json} body. */
        PROBLEM,
        /**
         * Refused by the HTTP layer before the application sees it (malformed request line or headers,
         * a body over {@code quarkus.http.limits.max-body-size}): any 4xx, the body need not be a problem;
         * or the connection closed without an answer (how Vert.x refuses broken body framing).
         */
        HTTP_LAYER_4XX,
        /**
         * Hostile but possibly valid (SQL or script text, unicode edge cases in free-text fields):
         * 2xx (then the test checks what was stored) or a 4xx problem; never 5xx.
         */
        MAY_ACCEPT
    }

    @Override
    public String toString() {
        return endpoint + " [" + label + "]";
    }
}
