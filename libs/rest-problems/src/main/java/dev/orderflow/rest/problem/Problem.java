package dev.orderflow.rest.problem;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem body ({@code application/problem+json}). Never carries a stack trace.
 *
 * @param type   a URI naming the kind of problem
 * @param title  short summary of the kind
 * @param status the HTTP status
 * @param detail what went wrong with this request
 * @param errors the invalid fields, for validation problems
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_PREFIX = "https://orderflow.dev/problems/";

    public static Problem of(String kind, String title, int status, String detail) {
        return new Problem(TYPE_PREFIX + kind, title, status, detail, List.of());
    }

    /** A 4xx naming every invalid field. */
    public static Problem invalid(int status, List<FieldError> errors) {
        String detail = errors.size() == 1
                ? "Invalid " + errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " invalid fields, first " + errors.get(0).field() + ": " + errors.get(0).message();
        return new Problem(TYPE_PREFIX + "invalid-request", "Invalid request", status, detail, List.copyOf(errors));
    }
}
