package dev.orderflow.order.rest;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.nullValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.ledger.LedgerLimits;
import dev.orderflow.ledger.LedgerRequests;
import dev.orderflow.ledger.LedgerOrder;
import dev.orderflow.ledger.OrderPage;
import dev.orderflow.order.OrderDatabase;
import dev.orderflow.rest.fuzz.ApiCallers;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

/**
 * The ledger API status-service's reconciliation reads orders through ({@code OrderLedgerApi}):
 * orders written straight into orderflow_order_test with chosen creation times, each test in a
 * window of its own years before any other test's orders, read back page by page as a client does.
 */
@QuarkusTest
class OrderLedgerApiTest {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    /** An order as seeded, and as the ledger must report it. */
    private record Seeded(String id, String amount, String status, Instant createdAt, Instant updatedAt,
            Map<String, Long> skus) {
    }

    /** One line of a seeded order. */
    private record Line(String sku, int quantity) {
    }

    @Test
    void pagesReturnEveryOrderOfTheWindowOnceByCreationTimeThenId() throws Exception {
        Instant from = Instant.parse("2003-03-03T00:00:00Z");
        Instant to = Instant.parse("2003-03-04T00:00:00Z");
        Instant tie = Instant.parse("2003-03-03T10:15:30.123Z");
        Instant lateTie = Instant.parse("2003-03-03T23:59:59.999Z");
        String tag = tag();
        // Outside the window: a millisecond before it, at its (exclusive) end, a day after it.
        seed(tag + "00", "1.00", "CREATED", from.minusMillis(1), List.of(new Line("SKU-OUT", 1)));
        seed(tag + "98", "1.00", "CREATED", to, List.of(new Line("SKU-OUT", 1)));
        seed(tag + "99", "1.00", "CREATED", to.plusSeconds(86_400), List.of());
        // Inside, written out of order; three share one creation time (split by the first page's
        // end), two share the window's last millisecond.
        List<Seeded> expected = new ArrayList<>();
        expected.add(seed(tag + "01", "12.50", "COMPLETED", from, List.of(new Line("SKU-A", 2))));
        Seeded tie4 = seed(tag + "04", "3.00", "FAILED", tie, List.of(new Line("SKU-C", 1)));
        Seeded tie2 = seed(tag + "02", "41.75", "CREATED", tie,
                List.of(new Line("SKU-A", 2), new Line("SKU-B", 1), new Line("SKU-A", 3)));
        Seeded tie3 = seed(tag + "03", "0.00", "CANCELLED", tie, List.of(new Line("SKU-B", 7)));
        expected.addAll(List.of(tie2, tie3, tie4));
        expected.add(seed(tag + "05", "99999.99", "COMPLETED", tie.plusMillis(1),
                List.of(new Line("SKU-D", 1000), new Line("SKU-D", 1000))));
        Seeded late7 = seed(tag + "07", "5.00", "CREATED", lateTie, List.of());
        Seeded late6 = seed(tag + "06", "6.00", "CANCELLED", lateTie, List.of(new Line("SKU-E", 1)));
        expected.addAll(List.of(late6, late7));
        assertThat(tie2.skus()).isEqualTo(Map.of("SKU-A", 5L, "SKU-B", 1L));

        List<OrderPage> pages = readAll(from, to, 3);

        assertThat(pages).extracting(page -> page.orders().size()).containsExactly(3, 3, 1);
        assertThat(pages.get(0).next()).isNotNull();
        assertThat(pages.get(1).next()).isNotNull();
        assertThat(pages.get(2).next()).isNull();
        assertMatches(pages.stream().flatMap(page -> page.orders().stream()).toList(), expected);

        // A last page that is full: its cursor leads to an empty page without a cursor.
        List<OrderPage> exact = readAll(from, to, expected.size());
        assertThat(exact).extracting(page -> page.orders().size()).containsExactly(expected.size(), 0);
        assertThat(exact.get(1).next()).isNull();
        assertMatches(exact.get(0).orders(), expected);

        // All in one page, and the JSON itself as a client sees it.
        given().queryParam("from", from.toString()).queryParam("to", to.toString())
                .queryParam("limit", LedgerLimits.MAX_PAGE).get("/ledger/orders").then().statusCode(200)
                .contentType("application/json")
                .body("next", nullValue())
                .body("orders.id", equalTo(expected.stream().map(Seeded::id).toList()))
                .body("orders[0].createdAt", equalTo("2003-03-03T00:00:00Z"))
                .body("orders[1].skus.SKU-A", equalTo(5))
                .body("orders[6].skus.size()", equalTo(0));

        // The widest window a column holds reaches every order; instants beyond it are refused.
        List<String> untilTheEnd = new ArrayList<>(expected.stream().map(Seeded::id).toList());
        untilTheEnd.addAll(List.of(tag + "98", tag + "99"));
        given().queryParam("from", from.toString()).queryParam("to", LedgerRequests.LATEST.toString())
                .queryParam("limit", untilTheEnd.size()).get("/ledger/orders").then().statusCode(200)
                .body("orders.id", equalTo(untilTheEnd));
        List<LedgerOrder> before = readAll(LedgerRequests.EARLIEST, from, LedgerLimits.MAX_PAGE)
                .stream().flatMap(page -> page.orders().stream()).toList();
        assertThat(before).isNotEmpty();
        assertThat(before.get(before.size() - 1).id()).isEqualTo(tag + "00");
        assertProblem(given().queryParam("from", "-1000000000-01-01T00:00:00Z").queryParam("to", to.toString())
                .queryParam("limit", 10), "from");
        assertProblem(given().queryParam("from", from.toString()).queryParam("to", "+10000-01-01T00:00:00Z")
                .queryParam("limit", 10), "to");
    }

    @Test
    void badWindowsLimitsAndCursorsAreProblemsNamingTheField() {
        String from = "2004-04-04T00:00:00Z";
        String to = "2004-04-05T00:00:00Z";
        String garbage = Base64.getUrlEncoder().withoutPadding()
                .encodeToString("2004-04-04T00:00:00Z".getBytes(StandardCharsets.UTF_8));
        for (String cursor : List.of("not-a-cursor", "%%%", garbage, "fA", "x".repeat(300))) {
            assertProblem(given().queryParam("from", from).queryParam("to", to).queryParam("limit", 10)
                    .queryParam("after", cursor), "after");
        }
        assertProblem(given().queryParam("limit", 10), "from", "to");
        assertProblem(given().queryParam("from", from).queryParam("limit", 10), "to");
        assertProblem(given().queryParam("from", "yesterday").queryParam("to", to).queryParam("limit", 10), "from");
        assertProblem(given().queryParam("from", to).queryParam("to", from).queryParam("limit", 10), "to");
        assertProblem(given().queryParam("from", from).queryParam("to", from).queryParam("limit", 10), "to");
        assertProblem(given().queryParam("from", from).queryParam("to", to).queryParam("limit", 0), "limit");
        assertProblem(given().queryParam("from", from).queryParam("to", to), "limit");
        assertProblem(given().queryParam("from", from).queryParam("to", to)
                .queryParam("limit", LedgerLimits.MAX_PAGE + 1), "limit");
        assertProblem(given().queryParam("from", from).queryParam("to", to).queryParam("limit", "ten"), "limit");
        assertProblem(given().queryParam("from", from).queryParam("to", to).queryParam("limit", "99999999999"), "limit");
        // The edges of the range are fine.
        for (int limit : new int[] {1, LedgerLimits.MAX_PAGE}) {
            given().queryParam("from", from).queryParam("to", to).queryParam("limit", limit).get("/ledger/orders")
                    .then().statusCode(200).body("orders.size()", equalTo(0)).body("next", nullValue());
        }
    }

    @Test
    void existingAnswersTheIdsThatAreOrders() {
        String tag = tag();
        Instant at = Instant.parse("2005-05-05T05:05:05.005Z");
        String first = seed(tag + "01", "1.00", "CREATED", at, List.of(new Line("SKU-1", 1))).id();
        String second = seed(tag + "02", "1.00", "COMPLETED", at.plusSeconds(3_600 * 24 * 400), List.of()).id();
        String missing = tag + "03";

        List<String> existing = given().contentType("application/json")
                .body(List.of(missing, second, first, second, "NO-SUCH-ORDER", first.toLowerCase(Locale.ROOT)))
                .post("/ledger/orders/existing").then().statusCode(200).contentType("application/json")
                .extract().jsonPath().getList("$", String.class);

        assertThat(existing).containsExactly(second, first);
        given().contentType("application/json").body(List.of(missing)).post("/ledger/orders/existing").then()
                .statusCode(200).body("size()", equalTo(0));
        // Exactly the limit is fine, one more is not.
        List<String> many = new ArrayList<>(Collections.nCopies(LedgerLimits.MAX_IDS - 1, missing));
        many.add(first);
        given().contentType("application/json").body(many).post("/ledger/orders/existing").then().statusCode(200)
                .body("", equalTo(List.of(first)));
        many.add(first);
        assertExistingProblem(many);
        assertExistingProblem(List.of());
        assertExistingProblem(List.of(" "));
        List<String> withNull = new ArrayList<>(List.of(first));
        withNull.add(null);
        assertExistingProblem(withNull);
        // As strict as the body of an order: no number read as an id, no object, no trailing data.
        for (String body : List.of("[7]", "{\"orderIds\":[\"" + first + "\"]}", "\"" + first + "\"",
                "[\"a\\u0000b\"]")) {
            assertExistingProblem(body, "orderIds");
        }
        for (String body : List.of("[\"" + first + "\"] x", "[\"" + first + "\",]", "not json")) {
            assertExistingProblem(body, "body");
        }
    }

    @Test
    void servicesAndStaffMayReadTheLedgerCustomersMayNot() {
        String tag = tag();
        String orderId = seed(tag + "01", "2.00", "CREATED", Instant.parse("2006-06-06T06:00:00Z"),
                List.of(new Line("SKU-1", 1))).id();
        Map<String, Object> window = Map.of("from", "2006-06-06T00:00:00Z", "to", "2006-06-07T00:00:00Z", "limit", 10);

        for (RequestSpecification allowed : List.of(given(), ApiCallers.asUser("vera", "viewer"),
                ApiCallers.asUser("otto", "operator"), ApiCallers.asUser("bert", "approver"))) {
            allowed.queryParams(window).get("/ledger/orders").then().statusCode(200)
                    .body("orders.id", equalTo(List.of(orderId)));
        }
        for (RequestSpecification allowed : List.of(given(), ApiCallers.asUser("vera", "viewer"))) {
            allowed.contentType("application/json").body(List.of(orderId)).post("/ledger/orders/existing").then()
                    .statusCode(200).body("", equalTo(List.of(orderId)));
        }
        // No token: 401. A customer or an inventory manager: 403 (the ledger spans every customer's orders).
        assertRefused(ApiCallers::anonymous, window, orderId, 401);
        assertRefused(() -> ApiCallers.asCustomer("C-LEDGER"), window, orderId, 403);
        assertRefused(() -> ApiCallers.asUser("ivan", "inventory-manager"), window, orderId, 403);
    }

    private static void assertRefused(Supplier<RequestSpecification> caller, Map<String, Object> window,
            String orderId, int status) {
        caller.get().queryParams(window).get("/ledger/orders").then().statusCode(status)
                .contentType("application/problem+json");
        caller.get().contentType("application/json").body(List.of(orderId)).post("/ledger/orders/existing").then()
                .statusCode(status).contentType("application/problem+json");
    }

    /** Reads the window page by page, each next page with the previous page's cursor, up to the page without one. */
    private static List<OrderPage> readAll(Instant from, Instant to, int limit) throws Exception {
        List<OrderPage> pages = new ArrayList<>();
        String after = null;
        do {
            RequestSpecification request = given().queryParam("from", from.toString()).queryParam("to", to.toString())
                    .queryParam("limit", limit);
            if (after != null) {
                request.queryParam("after", after);
            }
            String body = request.get("/ledger/orders").then().statusCode(200).contentType("application/json")
                    .extract().asString();
            OrderPage page = JSON.readValue(body, OrderPage.class);
            pages.add(page);
            after = page.next();
            assertThat(pages).as("pages read").hasSizeLessThan(20);
        } while (after != null);
        return pages;
    }

    private static void assertMatches(List<LedgerOrder> read, List<Seeded> expected) {
        assertThat(read).extracting(LedgerOrder::id).containsExactlyElementsOf(expected.stream().map(Seeded::id).toList());
        for (int i = 0; i < expected.size(); i++) {
            LedgerOrder order = read.get(i);
            Seeded seeded = expected.get(i);
            assertThat(order.amount()).as(seeded.id() + " amount").isEqualByComparingTo(new BigDecimal(seeded.amount()));
            assertThat(order.status()).as(seeded.id() + " status").isEqualTo(seeded.status());
            assertThat(order.createdAt()).as(seeded.id() + " createdAt").isEqualTo(seeded.createdAt());
            assertThat(order.updatedAt()).as(seeded.id() + " updatedAt").isEqualTo(seeded.updatedAt());
            assertThat(order.skus()).as(seeded.id() + " skus").isEqualTo(seeded.skus());
        }
    }

    private static void assertProblem(RequestSpecification request, String... fields) {
        request.get("/ledger/orders").then().statusCode(400).contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("errors.field", hasItems(fields))
                .body("errors.size()", equalTo(fields.length));
    }

    private static void assertExistingProblem(Object body) {
        assertExistingProblem(body, "orderIds");
    }

    private static void assertExistingProblem(Object body, String field) {
        given().contentType("application/json").body(body).post("/ledger/orders/existing").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo(field));
    }

    /** 24 characters unique to this call: ids are {@code tag + two digits}, 26 characters as the ULIDs. */
    private static String tag() {
        return "LG" + UUID.randomUUID().toString().replace("-", "").substring(0, 22).toUpperCase(Locale.ROOT);
    }

    /** Writes an order and its lines, committed; updated a minute after its creation. */
    private static Seeded seed(String id, String amount, String status, Instant createdAt, List<Line> lines) {
        Instant updatedAt = createdAt.plusSeconds(60);
        OrderDatabase.execute("insert into orders (id, customer_id, phone, amount, status, created_at, updated_at)"
                + " values (?, 'C-LEDGER', '+819012345678', ?, ?, ?, ?)", id, new BigDecimal(amount), status,
                utc(createdAt), utc(updatedAt));
        Map<String, Long> skus = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Line line = lines.get(i);
            OrderDatabase.execute("insert into order_items (order_id, line_no, sku, quantity, unit_price)"
                    + " values (?, ?, ?, ?, 1.00)", id, i + 1, line.sku(), line.quantity());
            skus.merge(line.sku(), (long) line.quantity(), Long::sum);
        }
        return new Seeded(id, amount, status, createdAt, updatedAt, skus);
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
