package dev.orderflow.rest.fuzz;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;

import java.time.Instant;
import java.util.Collections;
import java.util.List;

import dev.orderflow.ledger.LedgerLimits;
import io.restassured.common.mapper.TypeRef;
import io.restassured.specification.RequestSpecification;

/**
 * The checks every consumer service's {@code /ledger/effects} passes (the {@code EffectLedgerApi} of
 * ledger-api), as a service calls it: a window's order ids page by page, and every bad input a 400
 * problem naming its field. Each service seeds its own rows first.
 */
public final class EffectLedgerCalls {

    private EffectLedgerCalls() {
    }

    /**
     * Pages of 2 through [{@code from}, {@code to}), in which exactly the five orders {@code inWindow}
     * (ascending) have effects: each named once, in order, the last page shorter than the limit.
     */
    public static void pageThroughTheWindow(Instant from, Instant to, List<String> inWindow) {
        assertThat(inWindow).hasSize(5);
        List<String> first = orderIdsWritten(from, to, null, 2);
        List<String> second = orderIdsWritten(from, to, first.get(1), 2);
        List<String> last = orderIdsWritten(from, to, second.get(1), 2);

        assertThat(first).containsExactlyElementsOf(inWindow.subList(0, 2));
        assertThat(second).containsExactlyElementsOf(inWindow.subList(2, 4));
        assertThat(last).as("the last page, shorter than the limit").containsExactly(inWindow.get(4));
        assertThat(orderIdsWritten(from, to, null, LedgerLimits.MAX_PAGE)).containsExactlyElementsOf(inWindow);
        assertThat(orderIdsWritten(from, to, inWindow.get(4), 2)).isEmpty();
    }

    /** A missing or reversed window, a limit out of range, no id or too many ids: 400 naming the field. */
    public static void badInputIsAProblemNamingTheField(Instant from, Instant to, String anyId) {
        badRequest(given().queryParam("to", to.toString()).queryParam("limit", 10), "from");
        badRequest(given().queryParam("from", from.toString()).queryParam("limit", 10), "to");
        badRequest(given().queryParam("from", to.toString()).queryParam("to", from.toString()).queryParam("limit", 10),
                "to");
        badRequest(given().queryParam("from", from.toString()).queryParam("to", to.toString()).queryParam("limit", 0),
                "limit");
        badRequest(given().queryParam("from", from.toString()).queryParam("to", to.toString())
                .queryParam("limit", LedgerLimits.MAX_PAGE + 1), "limit");
        badRequest(given().queryParam("from", from.toString()).queryParam("to", to.toString())
                .queryParam("limit", "ten"), "limit");
        badBody(List.of());
        badBody(Collections.nCopies(LedgerLimits.MAX_IDS + 1, anyId));
    }

    /** One page of {@code GET /ledger/effects/order-ids}, which must answer 200. */
    public static List<String> orderIdsWritten(Instant from, Instant to, String after, int limit) {
        RequestSpecification request = given().queryParam("from", from.toString()).queryParam("to", to.toString())
                .queryParam("limit", limit);
        if (after != null) {
            request.queryParam("after", after);
        }
        return request.get("/ledger/effects/order-ids").then().statusCode(200).extract()
                .as(new TypeRef<List<String>>() {
                });
    }

    private static void badRequest(RequestSpecification request, String field) {
        request.get("/ledger/effects/order-ids").then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", contains(field));
    }

    private static void badBody(List<String> orderIds) {
        given().contentType("application/json").body(orderIds).post("/ledger/effects").then().statusCode(400)
                .contentType("application/problem+json").body("errors.field", contains("orderIds"));
    }
}
