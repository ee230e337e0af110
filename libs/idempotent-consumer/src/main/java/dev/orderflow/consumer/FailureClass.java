package dev.orderflow.consumer;

/** Why a message could not be consumed; decides between dead-lettering now and retrying. */
public enum FailureClass {
    /** Unparseable body, missing or invalid field, no business key. Permanent: DLQ after one attempt. */
    FORMAT("format", true),
    /** A well-formed message the domain cannot accept (unknown SKU or customer). Permanent. */
    BUSINESS("business", true),
    /** Database connection, lock or query timeout, remote 5xx. Transient: retried with back-off, DLQ after the maximum. */
    SYSTEM("system", false);

    private final String label;
    private final boolean permanent;

    FailureClass(String label, boolean permanent) {
        this.label = label;
        this.permanent = permanent;
    }

    /** The lower-case name stored in consume_failure and in the DLQ entry's failure class. */
    public String label() {
        return label;
    }

    public boolean permanent() {
        return permanent;
    }
}
