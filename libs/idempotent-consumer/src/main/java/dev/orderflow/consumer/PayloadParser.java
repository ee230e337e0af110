package dev.orderflow.consumer;

/**
 * Turns a message body into the handler's type. Anything it throws is a permanent
 * {@link FailureClass#FORMAT} failure: the same body will never parse on a retry.
 */
@FunctionalInterface
public interface PayloadParser<T> {

    T parse(String body) throws Exception;
}
