package dev.orderflow.status.domain;

import dev.orderflow.order.events.ConsumerReport;

/** What one consumer did with one order event, as shown by the API. */
public enum ConsumerState {
    /** Nothing heard from the consumer yet. */
    PENDING,
    DONE,
    REJECTED,
    DEAD_LETTERED;

    /** True for REJECTED and DEAD_LETTERED. */
    public boolean failed() {
        return this == REJECTED || this == DEAD_LETTERED;
    }

    public static ConsumerState of(ConsumerReport.Outcome outcome) {
        return switch (outcome) {
            case DONE -> DONE;
            case REJECTED -> REJECTED;
            case DEAD_LETTERED -> DEAD_LETTERED;
        };
    }
}
