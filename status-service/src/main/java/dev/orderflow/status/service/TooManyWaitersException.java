package dev.orderflow.status.service;

/** This instance already holds the configured maximum of long-polling requests. */
public class TooManyWaitersException extends RuntimeException {

    public TooManyWaitersException(int maxWaiters) {
        super(maxWaiters + " requests are already waiting on this instance", null, false, false);
    }
}
