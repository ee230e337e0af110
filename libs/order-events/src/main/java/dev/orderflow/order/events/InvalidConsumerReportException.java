package dev.orderflow.order.events;

/**
 * A message body that is not a valid {@link ConsumerReport}. Retrying cannot fix it: the status
 * service treats it as a permanent {@code format} failure.
 *
 * <p>{@link #field()} names the offending JSON field, or {@code $} for the body as a whole.
 */
public class InvalidConsumerReportException extends RuntimeException {

    private final String field;

    public InvalidConsumerReportException(String field, String reason) {
        this(field, reason, null);
    }

    public InvalidConsumerReportException(String field, String reason, Throwable cause) {
        super(field + ": " + reason, cause);
        this.field = field;
    }

    /** The missing or invalid field, or {@code $}. */
    public String field() {
        return field;
    }
}
