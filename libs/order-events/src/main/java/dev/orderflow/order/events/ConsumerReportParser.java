package dev.orderflow.order.events;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Strict reader of report bodies; the first problem is reported as an
 * {@link InvalidConsumerReportException} naming the field.
 *
 * <p>Rules: {@code schemaVersion} an integer 1..{@link ConsumerReport#CURRENT_SCHEMA_VERSION};
 * {@code orderId}, {@code consumer} non-blank strings usable in a key (no ':' or spaces; consumer
 * lower-case {@code [a-z][a-z0-9-]*}); {@code eventType} create, cancel or fail; {@code outcome} DONE,
 * REJECTED or DEAD_LETTERED; {@code failureClass} and {@code reason} null or strings, consistent
 * with the outcome (see {@link ConsumerReport}); {@code occurredAt} an ISO-8601 instant. Unknown
 * fields are ignored.
 */
public final class ConsumerReportParser {

    private ConsumerReportParser() {
    }

    /** @throws InvalidConsumerReportException naming the first missing or invalid field */
    public static ConsumerReport parse(String json) {
        if (json == null || json.isBlank()) {
            throw new InvalidConsumerReportException("$", "empty body");
        }
        JsonNode root;
        try {
            root = OrderEventJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidConsumerReportException("$", "not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new InvalidConsumerReportException("$", "not a JSON object");
        }
        JsonNode version = required(root, "schemaVersion");
        if (!version.isIntegralNumber() || !version.canConvertToInt()) {
            throw new InvalidConsumerReportException("schemaVersion", "must be an integer");
        }
        if (version.intValue() < 1 || version.intValue() > ConsumerReport.CURRENT_SCHEMA_VERSION) {
            throw new InvalidConsumerReportException("schemaVersion", "unsupported version " + version.intValue());
        }
        String orderId = requiredText(root, "orderId");
        if (orderId.indexOf(':') >= 0 || orderId.indexOf(' ') >= 0) {
            throw new InvalidConsumerReportException("orderId", "must not contain ':' or spaces");
        }
        String eventTypeText = requiredText(root, "eventType");
        OrderEventType eventType = OrderEventType.fromTag(eventTypeText);
        if (eventType == null) {
            throw new InvalidConsumerReportException("eventType", "must be create, cancel or fail, was '" + eventTypeText + "'");
        }
        String consumer = requiredText(root, "consumer");
        if (!ConsumerReports.isValidConsumerName(consumer)) {
            throw new InvalidConsumerReportException("consumer", "must be lower-case [a-z][a-z0-9-]*, was '" + consumer + "'");
        }
        String outcomeText = requiredText(root, "outcome");
        ConsumerReport.Outcome outcome;
        try {
            outcome = ConsumerReport.Outcome.valueOf(outcomeText);
        } catch (IllegalArgumentException e) {
            throw new InvalidConsumerReportException("outcome", "must be DONE, REJECTED or DEAD_LETTERED, was '"
                    + outcomeText + "'", e);
        }
        String failureClass = optionalText(root, "failureClass");
        String reason = optionalText(root, "reason");
        String problem = ConsumerReport.outcomeProblem(outcome, failureClass, reason);
        if (problem != null) {
            int colon = problem.indexOf(':');
            throw new InvalidConsumerReportException(problem.substring(0, colon), problem.substring(colon + 2));
        }
        String occurredAtText = requiredText(root, "occurredAt");
        Instant occurredAt;
        try {
            occurredAt = Instant.parse(occurredAtText);
        } catch (DateTimeParseException e) {
            throw new InvalidConsumerReportException("occurredAt", "must be an ISO-8601 instant, was '"
                    + occurredAtText + "'", e);
        }
        return new ConsumerReport(version.intValue(), orderId, eventType, consumer, outcome, failureClass, reason,
                occurredAt);
    }

    private static JsonNode required(JsonNode root, String name) {
        JsonNode node = root.get(name);
        if (node == null || node.isNull()) {
            throw new InvalidConsumerReportException(name, "is missing");
        }
        return node;
    }

    private static String requiredText(JsonNode root, String name) {
        String text = optionalText(root, name);
        if (text == null) {
            throw new InvalidConsumerReportException(name, "is missing");
        }
        if (text.isBlank()) {
            throw new InvalidConsumerReportException(name, "must not be blank");
        }
        return text;
    }

    private static String optionalText(JsonNode root, String name) {
        JsonNode node = root.get(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new InvalidConsumerReportException(name, "must be a string");
        }
        return node.textValue();
    }
}
