package dev.orderflow.ledger;

/** The bounds every ledger endpoint enforces, so that one call's memory and time stay small. */
public final class LedgerLimits {

    /** Most order ids one POST may name. */
    public static final int MAX_IDS = 1000;
    /** Longest id a POST may name: the widest order_id column of the services. */
    public static final int MAX_ID_LENGTH = 128;
    /** Largest {@code limit} of a page. */
    public static final int MAX_PAGE = 1000;

    private LedgerLimits() {
    }
}
