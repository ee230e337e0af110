package dev.orderflow.status.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem body ({@code application/problem+json}); never carries a stack trace.
 *
 * @param type   a URI naming the kind of problem
 * @param title  short summary of the kind
 * @param status the HTTP status
 * @param detail what went wrong with this request
 * @param field  the query or path parameter at fault, for invalid input
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String field) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_PREFIX = "https://orderflow.dev/problems/";

    public static Problem of(String kind, String title, int status, String detail) {
        return new Problem(TYPE_PREFIX + kind, title, status, detail, null);
    }

    public static Problem invalidParameter(String field, String message) {
        return new Problem(TYPE_PREFIX + "invalid-request", "Invalid request", 400, "Invalid " + field + ": " + message,
                field);
    }
}
