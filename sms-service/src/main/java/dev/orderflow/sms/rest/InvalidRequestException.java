package dev.orderflow.sms.rest;

/** A request the API refuses with 400; the message says which parameter is wrong and why. */
public class InvalidRequestException extends RuntimeException {

    public InvalidRequestException(String message) {
        super(message);
    }
}
