package dev.orderflow.ledger;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import dev.orderflow.rest.problem.FieldError;
import dev.orderflow.rest.problem.ProblemException;

/**
 * The serving side's checks of a ledger call: each throws a 400 {@link ProblemException} naming the
 * field, so that a bad call reads no row.
 */
public final class LedgerRequests {

    /** Instants a DATETIME(3) column holds; a bound beyond them would fail or compare wrongly in a query. */
    public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    /** A time window [from, to), both given, and the page size asked. */
    public record Window(Instant from, Instant to, int limit) {
    }

    private LedgerRequests() {
    }

    /**
     * {@code from} and {@code to} as ISO-8601 instants between {@link #EARLIEST} and {@link #LATEST},
     * {@code from} before {@code to}; and {@code limit} an integer in range (a String in the
     * contract, so that a limit that is no number is this 400, not the framework's 404).
     */
    public static Window window(String from, String to, String limit) {
        List<FieldError> errors = new ArrayList<>();
        Instant start = instant("from", from, errors);
        Instant end = instant("to", to, errors);
        if (start != null && end != null && !start.isBefore(end)) {
            errors.add(new FieldError("to", "must be after from"));
        }
        int size = 0;
        try {
            size = limit == null ? 0 : Integer.parseInt(limit.strip());
        } catch (NumberFormatException e) {
            // reported below, as out of range
        }
        if (size < 1 || size > LedgerLimits.MAX_PAGE) {
            errors.add(new FieldError("limit", "must be an integer between 1 and " + LedgerLimits.MAX_PAGE));
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid(errors);
        }
        return new Window(start, end, size);
    }

    /** A body of 1 to {@value LedgerLimits#MAX_IDS} ids, none blank or longer than {@value LedgerLimits#MAX_ID_LENGTH}. */
    public static List<String> orderIds(List<String> orderIds) {
        if (orderIds == null || orderIds.isEmpty() || orderIds.size() > LedgerLimits.MAX_IDS) {
            throw ProblemException.badRequest("orderIds", "must be a JSON array of 1 to " + LedgerLimits.MAX_IDS + " ids");
        }
        if (orderIds.stream().anyMatch(id -> id == null || id.isBlank())) {
            throw ProblemException.badRequest("orderIds", "must not contain null or blank ids");
        }
        if (orderIds.stream().anyMatch(id -> id.length() > LedgerLimits.MAX_ID_LENGTH)) {
            throw ProblemException.badRequest("orderIds", "ids must be at most " + LedgerLimits.MAX_ID_LENGTH
                    + " characters");
        }
        return List.copyOf(orderIds);
    }

    /** {@code value} as an instant in range; null (and an error for {@code field}) when it is not one. */
    public static Instant instant(String field, String value, List<FieldError> errors) {
        if (value == null || value.isBlank()) {
            errors.add(new FieldError(field, "is required (an ISO-8601 instant, e.g. 2026-01-31T00:00:00Z)"));
            return null;
        }
        try {
            Instant instant = Instant.parse(value);
            if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
                errors.add(new FieldError(field, "must be between " + EARLIEST + " and " + LATEST));
                return null;
            }
            return instant;
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(field, "must be an ISO-8601 instant, e.g. 2026-01-31T00:00:00Z"));
            return null;
        }
    }
}
