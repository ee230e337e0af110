package dev.orderflow.order.events;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Strict reader of order event bodies: every field is checked, and the first problem is reported
 * as an {@link InvalidOrderEventException} naming the field. Consumers classify that exception as
 * a permanent {@code format} failure.
 *
 * <p>Rules: all fields of {@link OrderEvent} are required (the {@code failure} on fail events
 * only); strings non-blank; {@code schemaVersion} an integer from 1 to
 * {@link OrderEvent#CURRENT_SCHEMA_VERSION}; {@code eventType} {@code create}, {@code cancel} or
 * {@code fail}; a failure's consumer a consumer name and its class format, business or system; at
 * least one item; {@code quantity} an integer ≥ 1; money
 * ({@code unitPrice}, {@code amount}) a JSON string holding a decimal ≥ 0 with at most two
 * decimals; {@code amount} equal to the sum of the line totals; {@code occurredAt} an ISO-8601
 * instant. Unknown fields are ignored so that fields can be added without a version bump.
 */
public final class OrderEventParser {

    private OrderEventParser() {
    }

    /**
     * @throws InvalidOrderEventException naming the first missing or invalid field
     */
    public static OrderEvent parse(String json) {
        JsonNode root = jsonObject(json);

        int schemaVersion = requiredInt(root, "schemaVersion", "schemaVersion");
        if (schemaVersion < 1 || schemaVersion > OrderEvent.CURRENT_SCHEMA_VERSION) {
            throw new InvalidOrderEventException("schemaVersion", "unsupported version " + schemaVersion
                    + " (this consumer reads 1.." + OrderEvent.CURRENT_SCHEMA_VERSION + ")");
        }
        String eventTypeText = requiredText(root, "eventType", "eventType");
        OrderEventType eventType = OrderEventType.fromTag(eventTypeText);
        if (eventType == null) {
            throw new InvalidOrderEventException("eventType", "must be create, cancel or fail, was '" + eventTypeText + "'");
        }
        String orderId = requiredText(root, "orderId", "orderId");
        if (orderId.indexOf(':') >= 0 || orderId.indexOf(' ') >= 0) {
            throw new InvalidOrderEventException("orderId", "must not contain ':' or spaces");
        }
        String customerId = requiredText(root, "customerId", "customerId");
        String phone = requiredText(root, "phone", "phone");
        List<OrderItem> items = items(root);
        BigDecimal amount = requiredMoney(root, "amount", "amount");
        Instant occurredAt = requiredInstant(root, "occurredAt", "occurredAt");

        BigDecimal expected = Money.total(items);
        if (expected.compareTo(amount) != 0) {
            throw new InvalidOrderEventException("amount", "is " + amount + " but the items add up to " + expected);
        }
        OrderFailure failure = eventType == OrderEventType.FAIL ? failure(root) : null;
        return new OrderEvent(schemaVersion, eventType, orderId, customerId, phone, items, amount, occurredAt, failure);
    }

    /** The {@code failure} object of a fail event; any other event's is ignored like an unknown field. */
    static OrderFailure failure(JsonNode root) {
        JsonNode failure = required(root, "failure", "failure");
        if (!failure.isObject()) {
            throw new InvalidOrderEventException("failure", "must be an object");
        }
        String consumer = requiredText(failure, "consumer", "failure.consumer");
        if (!ConsumerReports.isValidConsumerName(consumer)) {
            throw new InvalidOrderEventException("failure.consumer", "is not a consumer name: '" + consumer + "'");
        }
        String failureClass = requiredText(failure, "failureClass", "failure.failureClass");
        if (!OrderFailure.CLASSES.contains(failureClass)) {
            throw new InvalidOrderEventException("failure.failureClass", "must be one of " + OrderFailure.CLASSES
                    + ", was '" + failureClass + "'");
        }
        return new OrderFailure(consumer, failureClass, requiredText(failure, "reason", "failure.reason"));
    }

    private static List<OrderItem> items(JsonNode root) {
        JsonNode items = required(root, "items", "items");
        if (!items.isArray()) {
            throw new InvalidOrderEventException("items", "must be an array");
        }
        if (items.isEmpty()) {
            throw new InvalidOrderEventException("items", "must not be empty");
        }
        List<OrderItem> result = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String path = "items[" + i + "]";
            JsonNode item = items.get(i);
            if (!item.isObject()) {
                throw new InvalidOrderEventException(path, "must be an object");
            }
            String sku = requiredText(item, "sku", path + ".sku");
            int quantity = requiredInt(item, "quantity", path + ".quantity");
            if (quantity < 1) {
                throw new InvalidOrderEventException(path + ".quantity", "must be at least 1, was " + quantity);
            }
            BigDecimal unitPrice = requiredMoney(item, "unitPrice", path + ".unitPrice");
            result.add(new OrderItem(sku, quantity, unitPrice));
        }
        return result;
    }

    /** The body as a JSON object: its first problem (empty, not JSON, not an object) as a whole-body failure. */
    static JsonNode jsonObject(String json) {
        if (json == null || json.isBlank()) {
            throw new InvalidOrderEventException(InvalidOrderEventException.WHOLE_BODY, "empty body");
        }
        JsonNode root;
        try {
            root = OrderEventJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidOrderEventException(InvalidOrderEventException.WHOLE_BODY,
                    "not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new InvalidOrderEventException(InvalidOrderEventException.WHOLE_BODY, "not a JSON object");
        }
        return root;
    }

    static JsonNode required(JsonNode parent, String name, String path) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            throw new InvalidOrderEventException(path, "is missing");
        }
        return node;
    }

    static String requiredText(JsonNode parent, String name, String path) {
        JsonNode node = required(parent, name, path);
        if (!node.isTextual()) {
            throw new InvalidOrderEventException(path, "must be a string");
        }
        String text = node.textValue();
        if (text.isBlank()) {
            throw new InvalidOrderEventException(path, "must not be blank");
        }
        return text;
    }

    private static int requiredInt(JsonNode parent, String name, String path) {
        JsonNode node = required(parent, name, path);
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw new InvalidOrderEventException(path, "must be an integer");
        }
        return node.intValue();
    }

    private static BigDecimal requiredMoney(JsonNode parent, String name, String path) {
        String text = requiredText(parent, name, path);
        BigDecimal value;
        try {
            value = new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new InvalidOrderEventException(path, "must be a decimal number, was '" + text + "'", e);
        }
        if (value.signum() < 0) {
            throw new InvalidOrderEventException(path, "must not be negative, was " + text);
        }
        if (value.stripTrailingZeros().scale() > Money.SCALE) {
            throw new InvalidOrderEventException(path, "must have at most two decimals, was " + text);
        }
        return Money.scale2(value);
    }

    static Instant requiredInstant(JsonNode parent, String name, String path) {
        String text = requiredText(parent, name, path);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidOrderEventException(path, "must be an ISO-8601 instant, was '" + text + "'", e);
        }
    }
}
