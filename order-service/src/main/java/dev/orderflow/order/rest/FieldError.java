package dev.orderflow.order.rest;

/**
 * One invalid input in a problem body.
 *
 * @param field   JSON path of the field ({@code items[0].quantity}), a header name
 *                ({@code Idempotency-Key}), a query parameter, or {@code body} for the body as a whole
 * @param message what is wrong with it
 */
public record FieldError(String field, String message) {
}
