package dev.orderflow.status.reconciliation;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.orderflow.status.StatusTopics;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.security.TestSecurity;

/**
 * Reconciliation while sms-service is out of reach (nothing listens on its port): the run fails in
 * the middle of its stream of orders, when it reads the first page's texts. It is refused with a 503
 * problem that names the service and says to retry, and no half-read report takes the place of the
 * last one. The status API itself stays up (the other services are not part of readiness).
 */
@QuarkusTest
@TestProfile(ReconciliationOutageTest.SmsServiceDown.class)
@WithTestResource(StatusTopics.class)
@WithTestResource(value = PeerLedgers.class, initArgs = @ResourceArg(name = PeerLedgers.UNREACHABLE, value = "sms"))
class ReconciliationOutageTest {

    public static class SmsServiceDown implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orderflow.lag.sample-interval", "PT0S",
                    "orderflow.reconciliation.page-size", "2");
        }
    }

    private static final Instant HOUR = Instant.parse("2026-01-20T00:00:00Z");

    @BeforeAll
    static void writeOrders() {
        ReconciliationFixture.recreateTables();
        String run = Long.toString(System.currentTimeMillis(), 36).toUpperCase();
        for (int i = 0; i < 5; i++) {
            ReconciliationFixture.order("RO" + run + i, "3.00", "CREATED", HOUR.plusSeconds(60 + i), "SKU-1", 1);
        }
    }

    @Test
    @TestSecurity(user = "otto", roles = "operator")
    void aRunAgainstAnUnreachableServiceIsRefusedAndLeavesNoReport() {
        given().post("/admin/reconciliation?from=" + HOUR + "&to=" + HOUR.plusSeconds(3600)).then()
                .statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", equalTo("5"))
                .body("type", containsString("ledger-unavailable"))
                .body("detail", containsString("sms-service"))
                .body("detail", not(containsString("dev.orderflow")));
        given().get("/admin/reconciliation").then()
                .statusCode(404)
                .body("type", containsString("reconciliation-not-run"));
        given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    @TestSecurity(user = "otto", roles = "operator")
    void aLedgerThatRefusesTheTokenIsNamedWithItsStatus() {
        PeerLedgers.answerWith("order", 403);
        try {
            given().post("/admin/reconciliation?from=" + HOUR + "&to=" + HOUR.plusSeconds(3600)).then()
                    .statusCode(503)
                    .contentType("application/problem+json")
                    .body("type", containsString("ledger-unavailable"))
                    .body("detail", containsString("order-service's ledger answered HTTP 403"))
                    .body("detail", not(containsString("dev.orderflow")));
        } finally {
            PeerLedgers.answerNormally();
        }
    }
}
