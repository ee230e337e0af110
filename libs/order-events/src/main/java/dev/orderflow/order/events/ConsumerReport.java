package dev.orderflow.order.events;

import java.time.Instant;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What one consumer did with one order event: the body of messages on
 * {@link ConsumerReports#TOPIC}, read by the status service.
 *
 * <p>A DONE or REJECTED report is sent only when the consumer's effect (or its decision not to
 * apply it) committed; a DEAD_LETTERED report when the consumer dead-lettered the event at once
 * (format or business failure). Dead letters after exhausted retries (failure class
 * {@code system}) are not reported by the consumer: the status service learns them from
 * {@code %DLQ%<group>} (see the idempotent-consumer README).
 *
 * <p>Invariants (checked here and by {@link ConsumerReportParser}): DONE has neither failure class
 * nor reason; REJECTED has a reason and no failure class; DEAD_LETTERED has both, the class one of
 * {@code format}, {@code business}, {@code system}.
 *
 * @param schemaVersion {@link #CURRENT_SCHEMA_VERSION} when produced; same evolution rules as {@link OrderEvent}
 * @param orderId       the order
 * @param eventType     which of its events was consumed (create, cancel or fail)
 * @param consumer      the consumer's short name ({@link ConsumerReports#INVENTORY}, ...)
 * @param outcome       DONE, REJECTED or DEAD_LETTERED
 * @param failureClass  null, or for DEAD_LETTERED: format, business or system
 * @param reason        null for DONE; why it was rejected or dead-lettered otherwise
 * @param occurredAt    when the outcome committed at the consumer (millisecond precision)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "schemaVersion", "orderId", "eventType", "consumer", "outcome", "failureClass", "reason",
        "occurredAt" })
public record ConsumerReport(
        int schemaVersion,
        String orderId,
        OrderEventType eventType,
        String consumer,
        Outcome outcome,
        String failureClass,
        String reason,
        Instant occurredAt) {

    public static final int CURRENT_SCHEMA_VERSION = 1;

    /** The failure classes a DEAD_LETTERED report may carry. */
    public static final Set<String> FAILURE_CLASSES = Set.of("format", "business", "system");

    /** What the consumer did. */
    public enum Outcome {
        /** The effect committed. */
        DONE,
        /** The event was understood and deliberately not applied (e.g. insufficient stock). */
        REJECTED,
        /** The event went to the consumer group's dead-letter queue. */
        DEAD_LETTERED
    }

    public ConsumerReport {
        if (orderId == null || eventType == null || outcome == null || occurredAt == null) {
            throw new IllegalArgumentException("orderId, eventType, outcome and occurredAt are required");
        }
        // Validates orderId and consumer as key parts (no ':' or spaces, consumer name pattern).
        ConsumerReports.messageKey(orderId, eventType, consumer);
        String problem = outcomeProblem(outcome, failureClass, reason);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    public static ConsumerReport done(String orderId, OrderEventType eventType, String consumer, Instant occurredAt) {
        return new ConsumerReport(CURRENT_SCHEMA_VERSION, orderId, eventType, consumer, Outcome.DONE, null, null,
                occurredAt);
    }

    public static ConsumerReport rejected(String orderId, OrderEventType eventType, String consumer, String reason,
            Instant occurredAt) {
        return new ConsumerReport(CURRENT_SCHEMA_VERSION, orderId, eventType, consumer, Outcome.REJECTED, null, reason,
                occurredAt);
    }

    public static ConsumerReport deadLettered(String orderId, OrderEventType eventType, String consumer,
            String failureClass, String reason, Instant occurredAt) {
        return new ConsumerReport(CURRENT_SCHEMA_VERSION, orderId, eventType, consumer, Outcome.DEAD_LETTERED,
                failureClass, reason, occurredAt);
    }

    /** The KEYS of this report's message, {@code <orderId>:<eventType>:<consumer>}. */
    @JsonIgnore
    public String messageKey() {
        return ConsumerReports.messageKey(orderId, eventType, consumer);
    }

    /** The tag of this report's message: the consumer name. */
    @JsonIgnore
    public String tag() {
        return consumer;
    }

    /** Null when failure class and reason fit the outcome, else what is wrong (names the field first). */
    static String outcomeProblem(Outcome outcome, String failureClass, String reason) {
        boolean hasReason = reason != null && !reason.isBlank();
        return switch (outcome) {
            case DONE -> failureClass != null ? "failureClass: must be null for DONE"
                    : reason != null ? "reason: must be null for DONE" : null;
            case REJECTED -> failureClass != null ? "failureClass: must be null for REJECTED"
                    : !hasReason ? "reason: is required for REJECTED" : null;
            case DEAD_LETTERED -> !FAILURE_CLASSES.contains(failureClass)
                    ? "failureClass: must be format, business or system for DEAD_LETTERED, was " + failureClass
                    : !hasReason ? "reason: is required for DEAD_LETTERED" : null;
        };
    }
}
