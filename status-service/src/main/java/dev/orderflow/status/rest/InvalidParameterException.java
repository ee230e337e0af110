package dev.orderflow.status.rest;

/** A path or query parameter the API cannot use; answered with 400 naming it. */
public class InvalidParameterException extends RuntimeException {

    private final String field;

    public InvalidParameterException(String field, String message) {
        super(message, null, false, false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
