package dev.orderflow.order.filequeue;

/** Why a file went to {@code error/}; written to its {@code .reason} file. */
public enum FailureClass {
    /** Unreadable or invalid content (bad JSON, bad CSV line, unsupported file type, too large). */
    FORMAT,
    /** Well-formed content the service refuses (an idempotency key already used for another order). */
    BUSINESS,
    /** Broker, database or filesystem failure; the same file can be dropped again once it is fixed. */
    SYSTEM;

    public String label() {
        return name().toLowerCase();
    }
}
