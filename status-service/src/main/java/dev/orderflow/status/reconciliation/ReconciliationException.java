package dev.orderflow.status.reconciliation;

/** A database that reconciliation reads could not be queried; the run reports nothing. */
public class ReconciliationException extends RuntimeException {

    public ReconciliationException(String message, Throwable cause) {
        super(message, cause);
    }
}
