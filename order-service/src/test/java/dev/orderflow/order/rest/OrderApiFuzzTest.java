package dev.orderflow.order.rest;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.HTTP_LAYER_4XX;
import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.MAY_ACCEPT;
import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.PROBLEM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.ledger.LedgerLimits;
import dev.orderflow.order.OrderDatabase;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rest.fuzz.ApiCallers;
import dev.orderflow.rest.fuzz.FuzzCase;
import dev.orderflow.rest.fuzz.FuzzCorpus;
import dev.orderflow.rest.fuzz.FuzzRun;
import dev.orderflow.rest.fuzz.HostileValues;
import dev.orderflow.rest.fuzz.RawHttp;
import dev.orderflow.rest.fuzz.RawRequest;
import dev.orderflow.rest.fuzz.RawResponse;
import dev.orderflow.rest.fuzz.SlowClients;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * Hostile clients against every public endpoint of the order API (the rest-fuzz corpus, seeded):
 * each bad input gets a 4xx problem body without a stack trace or class names, nothing is written
 * (row counts) and nothing is sent (order_topic, read by a plain consumer), and the service still
 * answers. Real MariaDB (orderflow_order_test) and the in-process RocketMQ broker (Dev Services).
 */
@QuarkusTest
class OrderApiFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RawRequest.Header JSON_CONTENT = RawRequest.Header.of("Content-Type", "application/json");
    private static final String VALID_ORDER = "{\"customerId\":\"FUZZ-C\",\"phone\":\"+819012345678\","
            + "\"items\":[{\"sku\":\"FUZZ-SKU\",\"quantity\":2,\"unitPrice\":\"12.50\"}]}";
    private static final FuzzCorpus.JsonBodySpec ORDER_BODY = new FuzzCorpus.JsonBodySpec(VALID_ORDER,
            Set.of("customerId", "items[0].sku"), true, 65_536, 1_048_576);
    private static final String LEDGER_WINDOW = "from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z";
    private static final String VALID_IDS = "[\"NO-SUCH-ORDER\"]";

    @Test
    void hostileInputsAreRejectedWithProblemsAndNothingIsWrittenOrSent() throws Exception {
        FuzzCorpus corpus = new FuzzCorpus(FuzzCorpus.DEFAULT_SEED);
        List<FuzzCase> cases = new ArrayList<>();
        cases.addAll(corpus.jsonBody("POST /orders", "POST", "/orders", ORDER_BODY, 800).stream()
                .filter(c -> c.expectation() != MAY_ACCEPT).toList());
        cases.addAll(corpus.contentTypes("POST /orders", "POST", "/orders", VALID_ORDER));
        cases.addAll(corpus.headerValues("POST /orders", "POST", "/orders", VALID_ORDER, "Idempotency-Key",
                idempotencyKeys(), PROBLEM));
        cases.addAll(corpus.headerValues("POST /orders", "POST", "/orders", VALID_ORDER, "Idempotency-Key",
                List.of(new byte[] {1}, "key\u007f".getBytes(StandardCharsets.US_ASCII), "a\u0000b".getBytes(
                        StandardCharsets.US_ASCII)), HTTP_LAYER_4XX));
        cases.addAll(corpus.headerValues("POST /orders", "POST", "/orders", VALID_ORDER, "Authorization",
                FuzzCorpus.hostileAuthorizations(), PROBLEM));
        cases.addAll(corpus.wrongMethods("POST /orders", "/orders", Set.of("GET", "POST")));
        cases.addAll(corpus.malformedHttp("POST /orders", "POST", "/orders", VALID_ORDER));
        cases.addAll(corpus.pathSegment("POST /orders/{id}/cancel", "POST", "/orders/{}/cancel"));
        cases.addAll(corpus.wrongMethods("POST /orders/{id}/cancel", "/orders/NO-SUCH-ORDER/cancel", Set.of("POST")));
        cases.addAll(corpus.pathSegment("GET /orders/{id}", "GET", "/orders/{}"));
        cases.addAll(corpus.wrongMethods("GET /orders/{id}", "/orders/NO-SUCH-ORDER", Set.of("GET")));
        cases.addAll(corpus.queryParameter("GET /orders", "/orders", "customerId=FUZZ-C", "page",
                FuzzCorpus.badIntegers(0, Integer.MAX_VALUE), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /orders", "/orders", "customerId=FUZZ-C", "size",
                FuzzCorpus.badIntegers(1, 100), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /orders", "/orders", "", "customerId",
                List.of("", " ", "\t", "x".repeat(65), "x".repeat(3_000)), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /ledger/orders", "/ledger/orders", LEDGER_WINDOW, "limit",
                FuzzCorpus.badIntegers(1, LedgerLimits.MAX_PAGE), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /ledger/orders", "/ledger/orders", "to=2026-01-02T00:00:00Z&limit=10",
                "from", badInstants(), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /ledger/orders", "/ledger/orders", "from=2026-01-01T00:00:00Z&limit=10",
                "to", badInstants(), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /ledger/orders", "/ledger/orders", LEDGER_WINDOW + "&limit=10", "after",
                badCursors(), PROBLEM));
        cases.addAll(corpus.wrongMethods("GET /ledger/orders", "/ledger/orders?" + LEDGER_WINDOW + "&limit=10",
                Set.of("GET")));
        cases.addAll(badOrderIdBodies());
        cases.addAll(corpus.contentTypes("POST /ledger/orders/existing", "POST", "/ledger/orders/existing", VALID_IDS));
        cases.addAll(corpus.wrongMethods("POST /ledger/orders/existing", "/ledger/orders/existing", Set.of("POST")));

        String before = createOrder("FUZZ-BEFORE-" + UUID.randomUUID());
        await().atMost(Duration.ofSeconds(30)).until(() -> !TopicProbe.of(OrderMessaging.TOPIC).withKey(before + ":create").isEmpty());
        long orders = OrderDatabase.count("select count(*) from orders");
        long lines = OrderDatabase.count("select count(*) from order_items");
        Set<String> keys = new HashSet<>(TopicProbe.of(OrderMessaging.TOPIC).keys());

        FuzzRun run = new FuzzRun(new RawHttp(RestAssured.port, Duration.ofSeconds(10)).withAuthorization(ApiCallers.serviceAuthorization())).send(cases);

        // A sentinel order sent after the fuzz inputs: once its message is visible, a message of
        // any accepted fuzz input (committed before it) would be visible too.
        String after = createOrder("FUZZ-AFTER-" + UUID.randomUUID());
        await().atMost(Duration.ofSeconds(30)).until(() -> !TopicProbe.of(OrderMessaging.TOPIC).withKey(after + ":create").isEmpty());
        run.printAndVerify();
        assertThat(OrderDatabase.count("select count(*) from orders")).isEqualTo(orders + 1);
        assertThat(OrderDatabase.count("select count(*) from order_items")).isEqualTo(lines + 1);
        Set<String> newKeys = new HashSet<>(TopicProbe.of(OrderMessaging.TOPIC).keys());
        newKeys.removeAll(keys);
        assertThat(newKeys).containsExactly(after + ":create");
        assertThat(run.tallies().get("POST /orders").inputs()).isGreaterThanOrEqualTo(1_000);
        assertThat(run.tallies().get("GET /ledger/orders").inputs()).isGreaterThanOrEqualTo(150);
        assertThat(run.tallies().get("POST /ledger/orders/existing").inputs()).isGreaterThanOrEqualTo(50);
        assertThat(run.inputs()).isEqualTo(cases.size());
        assertStillUp();
    }

    /**
     * SQL/script text and unicode edge cases in the free-text fields (customerId, sku): stored and
     * returned exactly as sent, or rejected with a problem; never a 5xx.
     */
    @Test
    void hostileTextIsStoredVerbatimOrRejected() {
        FuzzCorpus corpus = new FuzzCorpus(FuzzCorpus.DEFAULT_SEED);
        List<FuzzCase> cases = new ArrayList<>(corpus.jsonBody("POST /orders (free text)", "POST", "/orders",
                ORDER_BODY, 0).stream().filter(c -> c.expectation() == MAY_ACCEPT).toList());
        List<String> hostile = new ArrayList<>(HostileValues.SQL_AND_SCRIPT);
        hostile.addAll(HostileValues.UNICODE);
        cases.addAll(corpus.queryParameter("GET /orders (free text)", "/orders", "", "customerId", hostile,
                MAY_ACCEPT));
        for (int i = 0; i < hostile.size(); i++) {
            cases.add(new FuzzCase("POST /ledger/orders/existing (free text)", "hostile id #" + i, RawRequest.of("POST",
                    "/ledger/orders/existing", List.of(JSON_CONTENT), json(List.of(hostile.get(i)))), MAY_ACCEPT, null));
        }

        FuzzRun run = new FuzzRun(new RawHttp(RestAssured.port, Duration.ofSeconds(10)).withAuthorization(ApiCallers.serviceAuthorization()))
                .send(cases, OrderApiFuzzTest::storedAsSent);

        run.printAndVerify();
        assertThat(run.inputs()).isEqualTo(cases.size());
        assertStillUp();
    }

    /**
     * Clients that never finish: half a body then close, half a body then silence, headers
     * trickled a byte at a time. None holds a worker thread (the body is read by the event loop
     * before the resource runs), so normal requests are still answered promptly.
     */
    @Test
    void slowAndPartialBodiesDoNotStopTheService() throws Exception {
        String customerId = "FUZZ-SLOW-" + UUID.randomUUID();
        RawRequest create = RawRequest.of("POST", "/orders",
                List.of(RawRequest.Header.of("Content-Type", "application/json")),
                VALID_ORDER.replace("FUZZ-C", customerId));
        RawHttp http = new RawHttp(RestAssured.port, Duration.ofSeconds(10)).withAuthorization(ApiCallers.serviceAuthorization());
        int inputs = 0;
        try (SlowClients slow = new SlowClients(http)) {
            for (int i = 0; i < 20; i++, inputs++) {
                slow.halfBodyThenClose(create);
            }
            List<Socket> stalled = new ArrayList<>();
            for (int i = 0; i < 250; i++, inputs++) {
                stalled.add(slow.halfBodyThenStall(create));
            }
            List<Socket> trickling = slow.trickle(create, 20, Duration.ofMillis(100), Duration.ofSeconds(3));
            inputs += trickling.size();

            SlowClients.assertAnswersPromptly(http, RawRequest.get("/orders/NO-SUCH-ORDER"), 404, 20, Duration.ofSeconds(5));
            assertStillUp();
        }
        System.out.println("FUZZ endpoint=POST /orders (slow clients) inputs=" + inputs);
        assertThat(inputs).isEqualTo(290);
        assertThat(OrderDatabase.ordersOfCustomer(customerId)).isZero();
        assertThat(TopicProbe.of(OrderMessaging.TOPIC).mentioning(customerId)).isEmpty();
    }

    /** A 2xx answer to a free-text input: the order (or listing) holds exactly the text that was sent. */
    private static List<String> storedAsSent(FuzzCase fuzzCase, RawResponse response) {
        try {
            JsonNode answer = JSON.readTree(response.body());
            if (fuzzCase.endpoint().startsWith("POST /ledger")) {
                // No such order: an injected id never matches one.
                return answer.isArray() && answer.isEmpty() ? List.of() : List.of("ids that exist: " + answer);
            }
            if (fuzzCase.endpoint().startsWith("GET")) {
                // Exact match only: an injected customerId never widens the listing.
                String target = fuzzCase.request().target();
                String asked = java.net.URLDecoder.decode(target.substring(target.indexOf("customerId=") + 11),
                        StandardCharsets.UTF_8);
                List<String> violations = new ArrayList<>();
                answer.path("items").forEach(order -> {
                    if (!asked.equals(order.path("customerId").asText())) {
                        violations.add("listing for " + asked + " holds an order of " + order.path("customerId"));
                    }
                });
                return violations;
            }
            JsonNode stored = JSON.readTree(given().get("/orders/" + answer.path("orderId").asText()).then()
                    .statusCode(200).extract().asString());
            List<String> violations = new ArrayList<>();
            String sentCustomer = fuzzCase.sentJson().path("customerId").asText();
            if (!sentCustomer.equals(stored.path("customerId").asText())) {
                violations.add("customerId stored as " + stored.path("customerId") + ", sent " + sentCustomer);
            }
            String sentSku = fuzzCase.sentJson().path("items").path(0).path("sku").asText();
            if (!sentSku.equals(stored.path("items").path(0).path("sku").asText())) {
                violations.add("sku stored as " + stored.path("items").path(0).path("sku") + ", sent " + sentSku);
            }
            return violations;
        } catch (java.io.IOException e) {
            return List.of("answer is not JSON: " + e.getMessage());
        }
    }

    /**
     * Idempotency-Key values outside 1-128 visible ASCII characters that reach the application (an
     * empty value is the same as no header; control characters are refused by the HTTP layer).
     */
    private static List<byte[]> idempotencyKeys() {
        List<byte[]> values = new ArrayList<>();
        for (String value : List.of("x".repeat(129), "has space", "tab\there", "x".repeat(5_000))) {
            values.add(value.getBytes(StandardCharsets.ISO_8859_1));
        }
        for (String value : List.of("ключ", "\uD83D\uDE00", "caf\u00e9")) {
            values.add(value.getBytes(StandardCharsets.UTF_8));
        }
        values.add(new byte[] {(byte) 0xFF, (byte) 0xFE});
        return values;
    }

    /** Text that is no ISO-8601 instant (blank too: from and to are required). */
    private static List<String> badInstants() {
        return FuzzCorpus.concat(HostileValues.SQL_AND_SCRIPT, HostileValues.UNICODE, List.of("", " ", "2026-01-01",
                "2026-01-01T00:00:00", "2026-01-01 00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T25:00:00Z",
                "2026-01-01T00:00:00ZZ", "1767225600", "now", "null", "x".repeat(3_000)));
    }

    /** Cursors no page gave (not blank: a blank after is the first page). */
    private static List<String> badCursors() {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        List<String> values = new ArrayList<>(FuzzCorpus.concat(HostileValues.SQL_AND_SCRIPT, HostileValues.UNICODE,
                List.of("!", "====", "x".repeat(300), "2026-01-01T00:00:00Z|ID")));
        for (String text : List.of("2026-01-01T00:00:00Z", "|ID", "yesterday|ID", "2026-01-01T00:00:00Z|",
                "2026-01-01T00:00:00Z|" + "x".repeat(65), "2026-01-01T00:00:00Z|a\u0000b")) {
            values.add(base64.encodeToString(text.getBytes(StandardCharsets.UTF_8)));
        }
        values.add(base64.encodeToString(new byte[] {(byte) 0xFF, (byte) 0xFE, '|', 'I', 'D'}));
        values.removeIf(String::isBlank);
        return values;
    }

    /** Bodies of POST /ledger/orders/existing that are no JSON array of 1 to 1,000 ids. */
    private static List<FuzzCase> badOrderIdBodies() {
        List<String> bodies = new ArrayList<>(List.of("", "null", "{}", "\"ID\"", "7", "true",
                "{\"orderIds\":[\"ID\"]}", "[]", "[null]", "[\"\"]", "[\" \"]", "[\"ID\", null]", "[7]", "[true]",
                "[1.5]", "[1e400]", "[[]]", "[{}]", "[[\"ID\"]]", "[\"ID\", 7]", "[", "]", "[\"ID\",]", "[\"ID\"",
                "[\"ID\"] x", "[\"ID\"][]", "[\"ID\"] // c", "['ID']", "[\"ID\" \"ID\"]", "[\"a\\u0000b\"]",
                "[\"\\u001b[31m\"]", "[\"x\\ud800\"]", "[\"\\udc00y\"]", "[\"" + "x".repeat(70_000) + "\"]"));
        bodies.add(json(Collections.nCopies(LedgerLimits.MAX_IDS + 1, "ID")));
        List<FuzzCase> cases = new ArrayList<>();
        for (String body : bodies) {
            cases.add(new FuzzCase("POST /ledger/orders/existing", "body " + abbreviate(body),
                    RawRequest.of("POST", "/ledger/orders/existing", List.of(JSON_CONTENT), body), PROBLEM, null));
        }
        for (byte[] invalid : HostileValues.INVALID_UTF8) {
            byte[] body = new byte[invalid.length + 4];
            body[0] = '[';
            body[1] = '"';
            System.arraycopy(invalid, 0, body, 2, invalid.length);
            body[body.length - 2] = '"';
            body[body.length - 1] = ']';
            cases.add(new FuzzCase("POST /ledger/orders/existing", "invalid UTF-8",
                    new RawRequest("POST", "/ledger/orders/existing", List.of(JSON_CONTENT), body, true), PROBLEM, null));
        }
        return cases;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    private static String createOrder(String customerId) {
        return given().contentType("application/json").body(VALID_ORDER.replace("FUZZ-C", customerId))
                .post("/orders").then().statusCode(201).extract().path("orderId");
    }

    private static void assertStillUp() {
        given().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
    }
}
