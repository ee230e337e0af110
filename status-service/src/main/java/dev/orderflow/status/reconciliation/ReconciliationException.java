package dev.orderflow.status.reconciliation;

/** A service whose ledger reconciliation reads could not answer; the run reports nothing. */
public class ReconciliationException extends RuntimeException {

    public ReconciliationException(String message, Throwable cause) {
        super(message, cause);
    }
}
