package dev.orderflow.status.reconciliation;

import static dev.orderflow.status.reconciliation.ReconciliationFixture.ledger;
import static dev.orderflow.status.reconciliation.ReconciliationFixture.movement;
import static dev.orderflow.status.reconciliation.ReconciliationFixture.order;
import static dev.orderflow.status.reconciliation.ReconciliationFixture.text;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import dev.orderflow.status.StatusTopics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.security.TestSecurity;
import io.restassured.path.json.JsonPath;

/**
 * Reconciliation through the admin API against real MariaDB databases holding the other services'
 * tables ({@link ReconciliationFixture}): a consistent set reports nothing, a corrupted one reports
 * each corruption. Lag sampling is off in this profile, so GET /lag answers 503. Real in-process
 * broker (Dev Services) for the rest of the application.
 */
@QuarkusTest
@TestProfile(ReconciliationTest.LagSamplingOff.class)
@WithTestResource(StatusTopics.class)
@WithTestResource(PeerLedgers.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReconciliationTest {

    /** Pages of 2 orders, so every window here spans several pages; at most 10 findings listed. */
    public static class LagSamplingOff implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orderflow.lag.sample-interval", "PT0S",
                    "orderflow.reconciliation.page-size", "2",
                    "orderflow.reconciliation.max-findings", "10");
        }
    }

    /**
     * A clean set in one hour, a corrupted set in the next, then orders whose effects were all lost:
     * each run looks at one of them. Ten days ago, well inside sms-service's retention (30 days), so
     * every text is still owed; {@link #PURGED} is older than that retention.
     */
    private static final Instant CLEAN = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(10));
    private static final Instant CORRUPT = CLEAN.plus(Duration.ofDays(1));
    private static final Instant LOST = CLEAN.plus(Duration.ofDays(2));
    private static final Instant PURGED = CLEAN.minus(Duration.ofDays(30));
    private static final Instant UNDONE = CLEAN.plus(Duration.ofDays(3));
    /** How the reports write instants. */
    private static final DateTimeFormatter REPORTED = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final int LOST_ORDERS = 5;
    private static final String RUN = Long.toString(System.currentTimeMillis(), 36).toUpperCase();

    @BeforeAll
    static void writeOrdersAndEffects() {
        ReconciliationFixture.recreateTables();
        Instant t = CLEAN.plusSeconds(60);
        // Two lines of SKU-1 are deducted as one movement of 3.
        order(id("A"), "25.00", "CREATED", t, "SKU-1", 2, "SKU-2", 1, "SKU-1", 1);
        movement(id("A"), "SKU-1", "DEDUCT", 3, t.plusSeconds(1));
        movement(id("A"), "SKU-2", "DEDUCT", 1, t.plusSeconds(1));
        ledger(id("A"), "ORDER_CREDIT", 25, t.plusSeconds(1));
        text(id("A"), "CREATE", t.plusSeconds(1));
        // Cancelled: every effect reversed once.
        order(id("B"), "10.50", "CANCELLED", t, "SKU-3", 1);
        movement(id("B"), "SKU-3", "DEDUCT", 1, t.plusSeconds(1));
        movement(id("B"), "SKU-3", "RESTORE", 1, t.plusSeconds(2));
        ledger(id("B"), "ORDER_CREDIT", 10, t.plusSeconds(1));
        ledger(id("B"), "ORDER_REVERSAL", -10, t.plusSeconds(2));
        text(id("B"), "CREATE", t.plusSeconds(1));
        text(id("B"), "CANCEL", t.plusSeconds(2));
        // Inventory rejected the create (insufficient stock): it owes no movement.
        order(id("C"), "5.00", "CREATED", t, "SKU-4", 100);
        ReconciliationFixture.rejectedCreate(id("C"), "inventory", t.plusSeconds(1));
        ledger(id("C"), "ORDER_CREDIT", 5, t.plusSeconds(1));
        text(id("C"), "CREATE", t.plusSeconds(1));
        // Failed (another consumer's business "no") and compensated: stock back, points back, the
        // confirmation withdrawn and the failure texted.
        order(id("H"), "9.00", "FAILED", t, "SKU-8", 1);
        movement(id("H"), "SKU-8", "DEDUCT", 1, t.plusSeconds(1));
        movement(id("H"), "SKU-8", "RESTORE", 1, t.plusSeconds(2));
        ledger(id("H"), "ORDER_CREDIT", 9, t.plusSeconds(1));
        ledger(id("H"), "ORDER_FAILURE_REVERSAL", -9, t.plusSeconds(2));
        text(id("H"), "CREATE", "WITHDRAWN", t.plusSeconds(1));
        text(id("H"), "FAIL", t.plusSeconds(2));

        Instant u = CORRUPT.plusSeconds(60);
        // D: the stock movement is missing.
        order(id("D"), "3.00", "CREATED", u, "SKU-1", 1);
        ledger(id("D"), "ORDER_CREDIT", 3, u.plusSeconds(1));
        text(id("D"), "CREATE", u.plusSeconds(1));
        // E: points credited twice.
        order(id("E"), "7.99", "CREATED", u, "SKU-2", 1);
        movement(id("E"), "SKU-2", "DEDUCT", 1, u.plusSeconds(1));
        ledger(id("E"), "ORDER_CREDIT", 7, u.plusSeconds(1));
        ledger(id("E"), "ORDER_CREDIT", 7, u.plusSeconds(2));
        text(id("E"), "CREATE", u.plusSeconds(1));
        // F: two units deducted for one ordered.
        order(id("F"), "1.00", "CREATED", u, "SKU-5", 1);
        movement(id("F"), "SKU-5", "DEDUCT", 2, u.plusSeconds(1));
        ledger(id("F"), "ORDER_CREDIT", 1, u.plusSeconds(1));
        text(id("F"), "CREATE", u.plusSeconds(1));
        // G: cancelled; the points reversal is missing and the stock came back twice.
        order(id("G"), "4.00", "CANCELLED", u, "SKU-6", 2);
        movement(id("G"), "SKU-6", "DEDUCT", 2, u.plusSeconds(1));
        movement(id("G"), "SKU-6", "RESTORE", 2, u.plusSeconds(2));
        movement(id("G"), "SKU-6", "RESTORE", 2, u.plusSeconds(3));
        ledger(id("G"), "ORDER_CREDIT", 4, u.plusSeconds(1));
        text(id("G"), "CREATE", u.plusSeconds(1));
        text(id("G"), "CANCEL", u.plusSeconds(2));
        // K: failed, but its stock never came back and its confirmation went out.
        order(id("K"), "2.50", "FAILED", u, "SKU-9", 1);
        movement(id("K"), "SKU-9", "DEDUCT", 1, u.plusSeconds(1));
        ledger(id("K"), "ORDER_CREDIT", 2, u.plusSeconds(1));
        ledger(id("K"), "ORDER_FAILURE_REVERSAL", -2, u.plusSeconds(2));
        text(id("K"), "CREATE", u.plusSeconds(1));
        text(id("K"), "FAIL", u.plusSeconds(2));
        // A text for an order that does not exist.
        text(id("GHOST"), "CREATE", u.plusSeconds(5));

        // Every consumer lost every effect of these orders: three findings each.
        for (int i = 0; i < LOST_ORDERS; i++) {
            order(id("L" + i), "2.00", "CREATED", LOST.plusSeconds(60 + i), "SKU-7", 1);
        }

        Instant w = UNDONE.plusSeconds(60);
        // U1: cancelled, its credit lost: the missing credit is the finding, not also its reversal.
        order(id("U1"), "6.00", "CANCELLED", w, "SKU-1", 1);
        movement(id("U1"), "SKU-1", "DEDUCT", 1, w.plusSeconds(1));
        movement(id("U1"), "SKU-1", "RESTORE", 1, w.plusSeconds(2));
        text(id("U1"), "CREATE", w.plusSeconds(1));
        text(id("U1"), "CANCEL", w.plusSeconds(2));
        // U2: cancelled, two units deducted for one ordered and both given back: one wrong amount.
        order(id("U2"), "3.00", "CANCELLED", w, "SKU-2", 1);
        movement(id("U2"), "SKU-2", "DEDUCT", 2, w.plusSeconds(1));
        movement(id("U2"), "SKU-2", "RESTORE", 2, w.plusSeconds(2));
        ledger(id("U2"), "ORDER_CREDIT", 3, w.plusSeconds(1));
        ledger(id("U2"), "ORDER_REVERSAL", -3, w.plusSeconds(2));
        text(id("U2"), "CREATE", w.plusSeconds(1));
        text(id("U2"), "CANCEL", w.plusSeconds(2));
        // U3: failed because sms dead-lettered its create: sms owes no confirmation, only the failure text.
        order(id("U3"), "4.00", "FAILED", w, "SKU-3", 1);
        ReconciliationFixture.deadLetteredCreate(id("U3"), "sms", w.plusSeconds(1));
        movement(id("U3"), "SKU-3", "DEDUCT", 1, w.plusSeconds(1));
        movement(id("U3"), "SKU-3", "RESTORE", 1, w.plusSeconds(2));
        ledger(id("U3"), "ORDER_CREDIT", 4, w.plusSeconds(1));
        ledger(id("U3"), "ORDER_FAILURE_REVERSAL", -4, w.plusSeconds(2));
        text(id("U3"), "FAIL", w.plusSeconds(2));

        // Created longer ago than sms-service's retention: their texts may have been purged.
        Instant p = PURGED.plusSeconds(60);
        order(id("P1"), "6.00", "CREATED", p, "SKU-1", 1);
        movement(id("P1"), "SKU-1", "DEDUCT", 1, p.plusSeconds(1));
        ledger(id("P1"), "ORDER_CREDIT", 6, p.plusSeconds(1));
        // Cancelled a day ago: its cancellation text is still owed, its confirmation may be purged.
        Instant cancelled = Instant.now().minus(Duration.ofDays(1));
        order(id("P2"), "8.00", "CANCELLED", p, "SKU-2", 1);
        ReconciliationFixture.lastUpdated(id("P2"), cancelled);
        movement(id("P2"), "SKU-2", "DEDUCT", 1, p.plusSeconds(1));
        movement(id("P2"), "SKU-2", "RESTORE", 1, cancelled);
        ledger(id("P2"), "ORDER_CREDIT", 8, p.plusSeconds(1));
        ledger(id("P2"), "ORDER_REVERSAL", -8, cancelled);
    }

    private static String id(String name) {
        return "RC" + RUN + name;
    }

    private static String window(Instant from) {
        return "?from=" + from + "&to=" + from.plusSeconds(3600);
    }

    @Test
    @Order(1)
    @TestSecurity(user = "vera", roles = "viewer")
    void noReportBeforeTheFirstRun() {
        given().get("/admin/reconciliation").then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("type", containsString("reconciliation-not-run"));
    }

    @Test
    @Order(2)
    void anonymousCallsAreRefused() {
        given().get("/admin/reconciliation").then().statusCode(401);
        given().post("/admin/reconciliation" + window(CLEAN)).then().statusCode(401);
    }

    @Test
    @Order(3)
    @TestSecurity(user = "vera", roles = "viewer")
    void aViewerCannotRunIt() {
        given().post("/admin/reconciliation" + window(CLEAN)).then().statusCode(403);
    }

    @Test
    @Order(4)
    @TestSecurity(user = "otto", roles = "operator")
    void aConsistentSetHasNoFindings() {
        JsonPath report = given().post("/admin/reconciliation" + window(CLEAN)).then()
                .statusCode(200).contentType("application/json").extract().jsonPath();
        assertThat(report.getInt("ordersChecked")).isEqualTo(4);
        assertThat(report.getList("findings")).isEmpty();
        assertThat(report.getMap("counts")).containsExactly(Map.entry("missing-effect", 0),
                Map.entry("effect-without-order", 0), Map.entry("duplicate-effect", 0), Map.entry("wrong-amount", 0));
        assertThat(report.getString("from")).isEqualTo(REPORTED.format(CLEAN));
        assertThat(report.getString("to")).isEqualTo(REPORTED.format(CLEAN.plusSeconds(3600)));
        assertThat(report.getInt("findingsOmitted")).isZero();
        assertThat(report.getString("ranAt")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    }

    @Test
    @Order(5)
    @TestSecurity(user = "anna", roles = "approver")
    void everyCorruptedRowIsFound() {
        JsonPath report = given().post("/admin/reconciliation" + window(CORRUPT)).then()
                .statusCode(200).extract().jsonPath();
        assertThat(report.getInt("ordersChecked")).isEqualTo(5);
        List<Map<String, String>> findings = report.getList("findings");
        assertThat(findings).extracting(f -> f.get("kind"), f -> f.get("consumer"), f -> f.get("orderId"))
                .containsExactlyInAnyOrder(
                        tuple("missing-effect", "inventory", id("D")),
                        tuple("duplicate-effect", "points", id("E")),
                        tuple("wrong-amount", "inventory", id("F")),
                        tuple("missing-effect", "points", id("G")),
                        tuple("duplicate-effect", "inventory", id("G")),
                        tuple("missing-effect", "inventory", id("K")),
                        tuple("effect-without-order", "sms", id("K")),
                        tuple("effect-without-order", "sms", id("GHOST")));
        assertThat(findings).filteredOn(f -> f.get("orderId").equals(id("F"))).singleElement()
                .satisfies(f -> assertThat(f.get("detail")).isEqualTo("DEDUCT of 2 x SKU-5, ordered 1"));
        assertThat(findings).filteredOn(f -> f.get("orderId").equals(id("K"))).extracting(f -> f.get("detail"))
                .containsExactlyInAnyOrder("failed, but no RESTORE of SKU-9", "confirmation sent although the order failed");
        assertThat(report.getMap("counts")).containsExactly(Map.entry("missing-effect", 3),
                Map.entry("effect-without-order", 2), Map.entry("duplicate-effect", 2), Map.entry("wrong-amount", 1));

        String metrics = given().get("/q/metrics").asString();
        assertThat(metrics).contains("orderflow_reconciliation_findings{kind=\"missing-effect\"} 3.0",
                "orderflow_reconciliation_findings{kind=\"effect-without-order\"} 2.0",
                "orderflow_reconciliation_findings{kind=\"duplicate-effect\"} 2.0",
                "orderflow_reconciliation_findings{kind=\"wrong-amount\"} 1.0");
        assertThat(metrics).containsPattern("orderflow_reconciliation_last_run_timestamp_seconds \\d\\.\\d+E9");
    }

    @Test
    @Order(6)
    @TestSecurity(user = "vera", roles = "viewer")
    void theLastReportIsReadable() {
        given().get("/admin/reconciliation").then()
                .statusCode(200)
                .body("from", equalTo(REPORTED.format(CORRUPT)))
                .body("ordersChecked", equalTo(5))
                .body("findings.size()", equalTo(8));
    }

    @Test
    @Order(7)
    @TestSecurity(user = "otto", roles = "operator")
    void badWindowsAreRefused() {
        given().post("/admin/reconciliation?from=yesterday").then()
                .statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", equalTo("from"));
        given().post("/admin/reconciliation?from=2026-01-11T01:00:00Z&to=2026-01-11T00:00:00Z").then()
                .statusCode(400).body("detail", containsString("must be before to"));
        given().post("/admin/reconciliation?from=2025-01-01T00:00:00Z&to=2026-01-11T00:00:00Z").then()
                .statusCode(400).body("detail", containsString("window longer than"));
    }

    @Test
    @Order(8)
    @TestSecurity(user = "otto", roles = "operator")
    void findingsBeyondTheLimitAreCountedNotListed() {
        JsonPath report = given().post("/admin/reconciliation" + window(LOST)).then()
                .statusCode(200).extract().jsonPath();
        assertThat(report.getInt("ordersChecked")).isEqualTo(LOST_ORDERS);
        assertThat(report.getMap("counts")).containsExactly(Map.entry("missing-effect", 3 * LOST_ORDERS),
                Map.entry("effect-without-order", 0), Map.entry("duplicate-effect", 0), Map.entry("wrong-amount", 0));
        List<Map<String, String>> findings = report.getList("findings");
        assertThat(findings).hasSize(10).allSatisfy(f -> assertThat(f.get("kind")).isEqualTo("missing-effect"));
        assertThat(report.getInt("findingsOmitted")).isEqualTo(3 * LOST_ORDERS - 10);
        assertThat(given().get("/q/metrics").asString())
                .contains("orderflow_reconciliation_findings{kind=\"missing-effect\"} 15.0");
    }

    @Test
    @Order(9)
    @TestSecurity(user = "otto", roles = "operator")
    void aTextMissingForAnOrderOlderThanTheSmsRetentionIsNotReported() {
        JsonPath report = given().post("/admin/reconciliation" + window(PURGED)).then()
                .statusCode(200).extract().jsonPath();
        assertThat(report.getInt("ordersChecked")).isEqualTo(2);
        List<Map<String, String>> findings = report.getList("findings");
        assertThat(findings).extracting(f -> f.get("kind"), f -> f.get("consumer"), f -> f.get("orderId"),
                f -> f.get("detail")).containsExactly(tuple("missing-effect", "sms", id("P2"),
                        "cancelled, but no cancellation text (sms_outbox CANCEL)"));
    }

    @Test
    @Order(11)
    @TestSecurity(user = "otto", roles = "operator")
    void anUndoIsOwedForWhatItsCreateWroteAndAFailedOrdersDeadLetteredCreateOwesNothing() {
        JsonPath report = given().post("/admin/reconciliation" + window(UNDONE)).then()
                .statusCode(200).extract().jsonPath();
        assertThat(report.getInt("ordersChecked")).isEqualTo(3);
        List<Map<String, String>> findings = report.getList("findings");
        assertThat(findings).extracting(f -> f.get("kind"), f -> f.get("consumer"), f -> f.get("orderId"),
                f -> f.get("detail")).containsExactlyInAnyOrder(
                        tuple("missing-effect", "points", id("U1"), "no ORDER_CREDIT of 6 points"),
                        tuple("wrong-amount", "inventory", id("U2"), "DEDUCT of 2 x SKU-2, ordered 1"));
    }

    @Test
    @Order(10)
    @TestSecurity(user = "vera", roles = "viewer")
    void lagAnswers503WhenNothingWasEverMeasured() {
        given().get("/lag").then()
                .statusCode(503)
                .contentType("application/problem+json")
                .body("type", containsString("lag-not-measured"));
    }
}
