package dev.orderflow.order.rest;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.type.LogicalType;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.order.events.Money;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.service.NewOrder;
import dev.orderflow.rest.problem.FieldError;
import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.rest.problem.RequestText;

/**
 * Reads and validates request input; every rejection is a {@link ProblemException} naming the
 * field. Reading the body here (not by the framework) keeps every JSON error in one place:
 * malformed JSON, unknown fields, wrong types.
 */
@ApplicationScoped
public class OrderRequests {

    private static final Pattern PHONE = Pattern.compile("^\\+?[0-9]{6,20}$");
    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("^[\\x21-\\x7E]{1,128}$");
    private static final int MAX_ID_LENGTH = 64;

    private final OrderServiceConfig.Limits limits;
    private final BigDecimal maxUnitPrice;
    private final ObjectReader createOrderReader;

    @Inject
    public OrderRequests(OrderServiceConfig config, ObjectMapper objectMapper) {
        this.limits = config.limits();
        this.maxUnitPrice = new BigDecimal(limits.maxUnitPrice());
        ObjectMapper strict = objectMapper.copy();
        // Integers must be JSON integers: no "2" and no 2.5 silently becoming 2.
        strict.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        strict.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        // Text must be JSON strings: no 7, 0.001 or true silently becoming "7", "0.001", "true".
        for (CoercionInputShape scalar : new CoercionInputShape[] {CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean}) {
            strict.coercionConfigFor(LogicalType.Textual).setCoercion(scalar, CoercionAction.Fail);
        }
        this.createOrderReader = strict.readerFor(CreateOrderRequest.class)
                .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                // {"customerId":"A","customerId":"B"} is ambiguous (parsers differ on which wins): refuse it.
                .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .without(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    }

    /**
     * The raw body of {@code POST /orders} as a validated order. Bytes that are not UTF-8 are a 400:
     * a lenient decoder would turn them into U+FFFD and store text the client never sent.
     */
    public NewOrder parseCreateOrder(byte[] body) {
        return parseCreateOrder(body, null);
    }

    /**
     * The same for a customer ordering for itself: the body's customerId may be left out (then it is
     * {@code ownCustomerId}) and, if given, must be it (else 403).
     *
     * @param ownCustomerId the customer of the caller's token; null when the caller may order for anyone
     */
    public NewOrder parseCreateOrder(byte[] body, String ownCustomerId) {
        return parseCreateOrder(RequestText.utf8(body), ownCustomerId);
    }

    /** The body of {@code POST /orders} as a validated order. */
    public NewOrder parseCreateOrder(String body) {
        return parseCreateOrder(body, null);
    }

    private NewOrder parseCreateOrder(String body, String ownCustomerId) {
        if (body == null || body.isBlank()) {
            throw ProblemException.badRequest("body", "a JSON object is required");
        }
        if (body.getBytes(StandardCharsets.UTF_8).length > limits.maxBodyBytes()) {
            throw new ProblemException(Problem.of("payload-too-large", "Request body too large", 413,
                    "The body exceeds " + limits.maxBodyBytes() + " bytes"));
        }
        CreateOrderRequest request;
        try {
            request = createOrderReader.readValue(body);
        } catch (UnrecognizedPropertyException e) {
            throw ProblemException.badRequest(path(e), "unknown field (accepted: customerId, phone, items[].sku, "
                    + "items[].quantity, items[].unitPrice)");
        } catch (JsonParseException e) {
            throw ProblemException.badRequest("body", "malformed JSON at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage());
        } catch (MismatchedInputException e) {
            // Jackson's own message names Java types (java.lang.Integer, CreateOrderRequest): not for clients.
            throw ProblemException.badRequest(path(e), e.getMessage().startsWith("Trailing token")
                    ? "trailing data after the JSON object" : "wrong type: expected " + jsonType(e.getTargetType()));
        } catch (JsonMappingException e) {
            throw ProblemException.badRequest(path(e), "wrong type or invalid value");
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest("body", "unreadable JSON: " + e.getOriginalMessage());
        }
        if (request == null) {
            throw ProblemException.badRequest("body", "a JSON object is required");
        }
        if (ownCustomerId != null) {
            if (request.customerId() == null) {
                request = new CreateOrderRequest(ownCustomerId, request.phone(), request.items());
            } else if (!request.customerId().equals(ownCustomerId)) {
                throw new ProblemException(Problem.of("forbidden", "Forbidden", 403,
                        "a customer may order for itself only: customerId must be the token's or absent"));
            }
        }
        return validate(request);
    }

    /** Validates a request already read (the JSON body, or a CSV group of the file queue). */
    public NewOrder validate(CreateOrderRequest request) {
        List<FieldError> errors = new ArrayList<>();
        requireText(errors, "customerId", request.customerId(), MAX_ID_LENGTH);
        if (requireText(errors, "phone", request.phone(), 32) && !PHONE.matcher(request.phone()).matches()) {
            errors.add(new FieldError("phone", "must be 6 to 20 digits with an optional leading +"));
        }
        List<OrderItem> items = new ArrayList<>();
        if (request.items() == null) {
            errors.add(new FieldError("items", "is required"));
        } else if (request.items().isEmpty()) {
            errors.add(new FieldError("items", "must contain at least one item"));
        } else if (request.items().size() > limits.maxItems()) {
            errors.add(new FieldError("items", "must contain at most " + limits.maxItems() + " items"));
        } else {
            for (int i = 0; i < request.items().size(); i++) {
                OrderItem item = validateItem(errors, "items[" + i + "]", request.items().get(i));
                if (item != null) {
                    items.add(item);
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new ProblemException(Problem.invalid(400, errors));
        }
        return new NewOrder(request.customerId(), request.phone(), items);
    }

    private OrderItem validateItem(List<FieldError> errors, String path, CreateOrderRequest.Item item) {
        if (item == null) {
            errors.add(new FieldError(path, "is required"));
            return null;
        }
        int before = errors.size();
        requireText(errors, path + ".sku", item.sku(), MAX_ID_LENGTH);
        if (item.quantity() == null) {
            errors.add(new FieldError(path + ".quantity", "is required"));
        } else if (item.quantity() <= 0) {
            errors.add(new FieldError(path + ".quantity", "must be greater than 0"));
        } else if (item.quantity() > limits.maxQuantity()) {
            errors.add(new FieldError(path + ".quantity", "must be at most " + limits.maxQuantity()));
        }
        BigDecimal price = item.unitPrice();
        if (price == null) {
            errors.add(new FieldError(path + ".unitPrice", "is required"));
        } else if (price.signum() < 0) {
            errors.add(new FieldError(path + ".unitPrice", "must not be negative"));
        } else if (price.stripTrailingZeros().scale() > Money.SCALE) {
            errors.add(new FieldError(path + ".unitPrice", "must have at most two decimals"));
        } else if (price.compareTo(maxUnitPrice) > 0) {
            errors.add(new FieldError(path + ".unitPrice", "must be at most " + maxUnitPrice));
        }
        return errors.size() == before ? new OrderItem(item.sku(), item.quantity(), Money.scale2(price)) : null;
    }

    /** A valid Idempotency-Key header (1-128 visible ASCII characters), null when absent. */
    public String idempotencyKey(String header) {
        if (header == null) {
            return null;
        }
        if (!IDEMPOTENCY_KEY.matcher(header).matches()) {
            throw ProblemException.badRequest("Idempotency-Key", "must be 1 to 128 visible ASCII characters");
        }
        return header;
    }

    /** A page number ≥ 0; 0 when absent. */
    public int page(String value) {
        return value == null ? 0 : integer("page", value, 0, Integer.MAX_VALUE);
    }

    /** A page size from 1 to the configured maximum; the default size when absent. */
    public int size(String value) {
        return value == null ? limits.defaultPageSize() : integer("size", value, 1, limits.maxPageSize());
    }

    /** The required customer id of {@code GET /orders}. */
    public String customerId(String value) {
        if (value == null || value.isBlank()) {
            throw ProblemException.badRequest("customerId", "is required");
        }
        if (value.length() > MAX_ID_LENGTH) {
            throw ProblemException.badRequest("customerId", "must be at most " + MAX_ID_LENGTH + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw ProblemException.badRequest("customerId", "must not contain control characters");
        }
        return value;
    }

    private static int integer(String field, String value, int min, int max) {
        int parsed;
        try {
            parsed = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest(field, "must be an integer");
        }
        if (parsed < min || parsed > max) {
            throw ProblemException.badRequest(field, "must be between " + min + " and " + max);
        }
        return parsed;
    }

    private static boolean requireText(List<FieldError> errors, String field, String value, int maxLength) {
        if (value == null) {
            errors.add(new FieldError(field, "is required"));
            return false;
        }
        if (value.isBlank()) {
            errors.add(new FieldError(field, "must not be blank"));
            return false;
        }
        if (value.length() > maxLength) {
            errors.add(new FieldError(field, "must be at most " + maxLength + " characters"));
            return false;
        }
        if (RequestText.hasLoneSurrogate(value)) {
            // Not Unicode text: it cannot be stored as UTF-8 and would come back as '?'.
            errors.add(new FieldError(field, "must be valid Unicode text (no lone surrogates)"));
            return false;
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            // A NUL, escape or line break in an identifier ends up in logs, files and other systems.
            errors.add(new FieldError(field, "must not contain control characters"));
            return false;
        }
        return true;
    }

    /** How a client would name the JSON type a Java type is read from. */
    private static String jsonType(Class<?> type) {
        if (type == null) {
            return "another JSON type";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type)) {
            return "a number or a decimal string";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }

    /** The JSON path of a mapping error: {@code items[0].quantity}. */
    static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "body" : path.toString();
    }
}
