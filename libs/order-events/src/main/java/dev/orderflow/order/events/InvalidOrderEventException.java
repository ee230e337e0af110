package dev.orderflow.order.events;

/**
 * A message body that is not a valid {@link OrderEvent}. Retrying cannot fix it: consumers treat
 * it as a permanent {@code format} failure (dead-letter after one attempt).
 *
 * <p>{@link #field()} names the offending JSON field as a path ({@code items[1].quantity}), or
 * {@code $} when the body as a whole is unusable (not JSON, not an object).
 */
public class InvalidOrderEventException extends RuntimeException {

    /** The field name used when the body itself is the problem. */
    public static final String WHOLE_BODY = "$";

    private final String field;
    private final String reason;

    public InvalidOrderEventException(String field, String reason) {
        this(field, reason, null);
    }

    public InvalidOrderEventException(String field, String reason, Throwable cause) {
        super(field + ": " + reason, cause);
        this.field = field;
        this.reason = reason;
    }

    /** Path of the missing or invalid field, e.g. {@code amount} or {@code items[0].sku}. */
    public String field() {
        return field;
    }

    /** What is wrong with it. */
    public String reason() {
        return reason;
    }
}
