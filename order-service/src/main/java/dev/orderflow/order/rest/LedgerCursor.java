package dev.orderflow.order.rest;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;

import dev.orderflow.ledger.LedgerRequests;
import dev.orderflow.order.service.OrderLedger;
import dev.orderflow.rest.problem.ProblemException;

/**
 * The {@code next}/{@code after} cursor of {@code GET /ledger/orders}: the last order's creation
 * time and id, {@code <ISO-8601 instant>|<id>} in unpadded base64url, so that it travels in a query
 * parameter as is. Clients treat it as opaque.
 */
final class LedgerCursor {

    private static final String PARAMETER = "after";
    private static final char SEPARATOR = '|';
    /** Longer than any cursor this service writes (an instant and a 26-character id). */
    private static final int MAX_LENGTH = 256;
    private static final int MAX_ID_LENGTH = 64;

    private LedgerCursor() {
    }

    static String encode(OrderLedger.Position position) {
        String text = position.createdAt() + String.valueOf(SEPARATOR) + position.id();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The position {@code after} names; null when it is absent or blank (the first page). */
    static OrderLedger.Position decode(String after) {
        if (after == null || after.isBlank()) {
            return null;
        }
        try {
            if (after.length() > MAX_LENGTH) {
                throw new IllegalArgumentException("too long");
            }
            String text = StandardCharsets.UTF_8.newDecoder()
                    .decode(ByteBuffer.wrap(Base64.getUrlDecoder().decode(after))).toString();
            int separator = text.indexOf(SEPARATOR);
            String id = separator < 0 ? "" : text.substring(separator + 1);
            if (id.isEmpty() || id.length() > MAX_ID_LENGTH || id.chars().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException("no id");
            }
            Instant createdAt = Instant.parse(text.substring(0, separator));
            if (createdAt.isBefore(LedgerRequests.EARLIEST) || createdAt.isAfter(LedgerRequests.LATEST)) {
                throw new IllegalArgumentException("no creation time a column holds");
            }
            return new OrderLedger.Position(createdAt, id);
        } catch (IllegalArgumentException | CharacterCodingException | DateTimeParseException e) {
            throw ProblemException.badRequest(PARAMETER, "must be the next cursor of a previous page");
        }
    }
}
