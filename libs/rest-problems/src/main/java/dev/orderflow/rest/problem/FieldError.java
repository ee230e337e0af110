package dev.orderflow.rest.problem;

/**
 * One invalid input in a problem body.
 *
 * @param field   JSON path of the field, a path or query parameter, or {@code body} for the body as a whole
 * @param message what is wrong with it
 */
public record FieldError(String field, String message) {
}
