package dev.orderflow.order.events;

import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How an order ended, as the status service decided it from every required consumer's outcome:
 * the body of messages on {@link #TOPIC}, with tag = the outcome ({@code completed},
 * {@code failed}, {@code cancelled}) and KEYS = {@link #messageKey()}. Order-service records it on
 * the order (and starts the compensation of a FAILED one); sms-service sends a held confirmation
 * once the order COMPLETED.
 *
 * <p>Delivery is at-least-once (an outbox relay): readers apply it idempotently. Schema evolution
 * as {@link OrderEvent}: adding a field keeps the version, readers ignore fields they do not know
 * ({@link OrderOutcomeJson#parse} rejects newer versions).
 *
 * @param schemaVersion {@link #CURRENT_SCHEMA_VERSION} when produced
 * @param orderId       the order
 * @param outcome       COMPLETED, FAILED or CANCELLED
 * @param failure       why a FAILED order failed; null otherwise
 * @param reachedAt     when the status service saw the order reach it (millisecond precision)
 */
@JsonPropertyOrder({ "schemaVersion", "orderId", "outcome", "failure", "reachedAt" })
public record OrderOutcome(
        int schemaVersion,
        String orderId,
        Outcome outcome,
        @JsonInclude(JsonInclude.Include.NON_NULL) OrderFailure failure,
        Instant reachedAt) {

    /** The topic carrying order outcomes. */
    public static final String TOPIC = "order_outcome_topic";

    public static final int CURRENT_SCHEMA_VERSION = 1;

    /** A final state of an order; the lower-case name is the JSON value, the tag and the key suffix. */
    public enum Outcome {
        COMPLETED, FAILED, CANCELLED;

        @JsonValue
        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The outcome of a tag, or null when it names none. */
        public static Outcome fromTag(String tag) {
            for (Outcome outcome : values()) {
                if (outcome.tag().equals(tag)) {
                    return outcome;
                }
            }
            return null;
        }
    }

    public OrderOutcome {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reachedAt, "reachedAt");
        // Validates the order id as a key part.
        OrderMessaging.messageKey(orderId, OrderEventType.CREATE);
        if ((outcome == Outcome.FAILED) != (failure != null)) {
            throw new IllegalArgumentException("a FAILED outcome carries its failure, and only a FAILED one does");
        }
    }

    public static OrderOutcome completed(String orderId, Instant reachedAt) {
        return new OrderOutcome(CURRENT_SCHEMA_VERSION, orderId, Outcome.COMPLETED, null, reachedAt);
    }

    public static OrderOutcome cancelled(String orderId, Instant reachedAt) {
        return new OrderOutcome(CURRENT_SCHEMA_VERSION, orderId, Outcome.CANCELLED, null, reachedAt);
    }

    public static OrderOutcome failed(String orderId, OrderFailure failure, Instant reachedAt) {
        return new OrderOutcome(CURRENT_SCHEMA_VERSION, orderId, Outcome.FAILED, failure, reachedAt);
    }

    /** KEYS of the outcome message, {@code <orderId>:<outcome>}: one message per order and outcome. */
    @JsonIgnore
    public String messageKey() {
        return orderId + ":" + outcome.tag();
    }

    /** The message tag: the outcome's lower-case name. */
    @JsonIgnore
    public String tag() {
        return outcome.tag();
    }
}
