package dev.orderflow.points;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.ledger.RecordedEffect;
import dev.orderflow.rest.fuzz.EffectLedgerCalls;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.common.mapper.TypeRef;

/**
 * {@code /ledger/effects}: the points ledger as reconciliation reads it, from rows written with
 * controlled {@code created_at} (in 2002, where no other test writes). Who may call:
 * {@link PointsApiAccessTest}.
 */
@QuarkusTest
class EffectLedgerApiTest {

    private static final Instant WINDOW_FROM = Instant.parse("2002-03-01T00:00:00Z");
    private static final Instant WINDOW_TO = WINDOW_FROM.plus(Duration.ofDays(1));

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void effectsOfAreEveryLedgerEntryOfTheNamedOrdersAndNoOther() {
        String credited = "LEDGER-" + run + "-credited";
        String cancelled = "LEDGER-" + run + "-cancelled";
        String failed = "LEDGER-" + run + "-failed";
        String other = "LEDGER-" + run + "-other";
        Instant at = Instant.parse("2002-06-01T12:00:00Z");
        entry(credited, "ORDER_CREDIT", 25, at);
        entry(cancelled, "ORDER_CREDIT", 10, at);
        entry(cancelled, "ORDER_REVERSAL", -10, at.plusSeconds(60));
        entry(failed, "ORDER_CREDIT", 7, at);
        entry(failed, "ORDER_FAILURE_REVERSAL", -7, at.plusSeconds(60));
        entry(other, "ORDER_CREDIT", 3, at);

        List<RecordedEffect> effects = given().contentType("application/json")
                .body(List.of(credited, cancelled, failed, "LEDGER-" + run + "-unknown")).post("/ledger/effects")
                .then().statusCode(200).extract().as(new TypeRef<List<RecordedEffect>>() {
                });

        assertThat(effects).containsExactlyInAnyOrder(
                new RecordedEffect(credited, "ORDER_CREDIT", "", 25, null),
                new RecordedEffect(cancelled, "ORDER_CREDIT", "", 10, null),
                new RecordedEffect(cancelled, "ORDER_REVERSAL", "", -10, null),
                new RecordedEffect(failed, "ORDER_CREDIT", "", 7, null),
                new RecordedEffect(failed, "ORDER_FAILURE_REVERSAL", "", -7, null));
    }

    @Test
    void orderIdsWrittenPageThroughTheWindowInOrder() {
        List<String> inWindow = IntStream.rangeClosed(1, 5).mapToObj(i -> "LEDGER-" + run + "-w" + i).toList();
        entry(inWindow.get(0), "ORDER_CREDIT", 1, WINDOW_FROM);
        entry(inWindow.get(1), "ORDER_CREDIT", 1, WINDOW_FROM.plusSeconds(1));
        entry(inWindow.get(1), "ORDER_REVERSAL", -1, WINDOW_FROM.plusSeconds(2));
        entry(inWindow.get(2), "ORDER_CREDIT", 1, WINDOW_TO.minusMillis(1));
        entry(inWindow.get(3), "ORDER_CREDIT", 1, WINDOW_FROM.plusSeconds(3600));
        entry(inWindow.get(4), "ORDER_CREDIT", 1, WINDOW_FROM.plusSeconds(7200));
        // Rows just outside [from, to): the order written before and the one written at its end are not named.
        entry("LEDGER-" + run + "-w0", "ORDER_CREDIT", 1, WINDOW_FROM.minusMillis(1));
        entry("LEDGER-" + run + "-w6", "ORDER_CREDIT", 1, WINDOW_TO);
        // An order written in the window and after it: named once, for its rows in the window.
        entry(inWindow.get(3), "ORDER_REVERSAL", -1, WINDOW_TO.plusSeconds(60));

        EffectLedgerCalls.pageThroughTheWindow(WINDOW_FROM, WINDOW_TO, inWindow);
    }

    @Test
    void badInputIsAProblemNamingTheField() {
        EffectLedgerCalls.badInputIsAProblemNamingTheField(WINDOW_FROM, WINDOW_TO, "LEDGER-" + run);
    }

    private static void entry(String orderId, String reason, long points, Instant at) {
        CommittedState.execute("insert into points_ledger (order_id, customer_id, reason, points, created_at)"
                + " values (?, 'C-LEDGER', ?, ?, ?)", orderId, reason, points,
                LocalDateTime.ofInstant(at, ZoneOffset.UTC));
    }
}
