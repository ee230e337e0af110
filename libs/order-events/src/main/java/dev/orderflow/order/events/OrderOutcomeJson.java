package dev.orderflow.order.events;

import java.time.Instant;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Writes {@link OrderOutcome}s and reads them strictly: every field checked, the first problem
 * reported as an {@link InvalidOrderEventException} naming the field (a permanent {@code format}
 * failure for a reader). Unknown fields are ignored.
 */
public final class OrderOutcomeJson {

    private OrderOutcomeJson() {
    }

    /** The JSON body of a message carrying {@code outcome}. */
    public static String toJson(OrderOutcome outcome) {
        try {
            return OrderEventJson.mapper().writeValueAsString(outcome);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize the outcome of order " + outcome.orderId(), e);
        }
    }

    /**
     * @throws InvalidOrderEventException naming the first missing or invalid field
     */
    public static OrderOutcome parse(String json) {
        JsonNode root = OrderEventParser.jsonObject(json);
        JsonNode version = OrderEventParser.required(root, "schemaVersion", "schemaVersion");
        if (!version.isIntegralNumber() || version.intValue() < 1
                || version.intValue() > OrderOutcome.CURRENT_SCHEMA_VERSION) {
            throw new InvalidOrderEventException("schemaVersion", "unsupported version " + version
                    + " (this reader reads 1.." + OrderOutcome.CURRENT_SCHEMA_VERSION + ")");
        }
        String orderId = OrderEventParser.requiredText(root, "orderId", "orderId");
        if (orderId.indexOf(':') >= 0 || orderId.indexOf(' ') >= 0) {
            throw new InvalidOrderEventException("orderId", "must not contain ':' or spaces");
        }
        String outcomeText = OrderEventParser.requiredText(root, "outcome", "outcome");
        OrderOutcome.Outcome outcome = OrderOutcome.Outcome.fromTag(outcomeText);
        if (outcome == null) {
            throw new InvalidOrderEventException("outcome", "must be completed, failed or cancelled, was '"
                    + outcomeText + "'");
        }
        OrderFailure failure = outcome == OrderOutcome.Outcome.FAILED ? OrderEventParser.failure(root) : null;
        Instant reachedAt = OrderEventParser.requiredInstant(root, "reachedAt", "reachedAt");
        return new OrderOutcome(version.intValue(), orderId, outcome, failure, reachedAt);
    }
}
