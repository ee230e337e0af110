package dev.orderflow.consumer;

import java.util.Objects;

/**
 * What a handler did with a message. Both outcomes are successes for the pipeline: the message
 * is recorded as consumed and acknowledged. A handler signals failures by throwing.
 *
 * @param status DONE (effect applied) or REJECTED (a business "no", e.g. insufficient stock)
 * @param reason why it was rejected; null for DONE
 */
public record Outcome(Status status, String reason) {

    public enum Status {
        /** The effect was applied. */
        DONE,
        /** The message was understood and deliberately not applied (an outcome, not an error). */
        REJECTED
    }

    public Outcome {
        Objects.requireNonNull(status, "status");
    }

    public static Outcome done() {
        return new Outcome(Status.DONE, null);
    }

    public static Outcome rejected(String reason) {
        return new Outcome(Status.REJECTED, Objects.requireNonNull(reason, "reason"));
    }
}
