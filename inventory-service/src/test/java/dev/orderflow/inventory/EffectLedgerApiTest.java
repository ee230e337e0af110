package dev.orderflow.inventory;

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
 * {@code /ledger/effects}: stock movements as reconciliation reads them, from rows written with
 * controlled {@code created_at} (in 2002, where no other test writes). Who may call:
 * {@link StockApiAccessTest}.
 */
@QuarkusTest
class EffectLedgerApiTest {

    private static final Instant WINDOW_FROM = Instant.parse("2002-03-01T00:00:00Z");
    private static final Instant WINDOW_TO = WINDOW_FROM.plus(Duration.ofDays(1));

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void effectsOfAreEveryMovementOfTheNamedOrdersAndNoOther() {
        String created = "LEDGER-" + run + "-created";
        String cancelled = "LEDGER-" + run + "-cancelled";
        String other = "LEDGER-" + run + "-other";
        Instant at = Instant.parse("2002-06-01T12:00:00Z");
        movement(created, "SKU-A", "DEDUCT", 2, at);
        movement(created, "SKU-B", "DEDUCT", 5, at);
        movement(cancelled, "SKU-A", "DEDUCT", 3, at);
        movement(cancelled, "SKU-A", "RESTORE", 3, at.plusSeconds(60));
        movement(other, "SKU-A", "DEDUCT", 1, at);

        List<RecordedEffect> effects = given().contentType("application/json")
                .body(List.of(created, cancelled, "LEDGER-" + run + "-unknown")).post("/ledger/effects")
                .then().statusCode(200).extract().as(new TypeRef<List<RecordedEffect>>() {
                });

        assertThat(effects).containsExactlyInAnyOrder(
                new RecordedEffect(created, "DEDUCT", "SKU-A", 2, null),
                new RecordedEffect(created, "DEDUCT", "SKU-B", 5, null),
                new RecordedEffect(cancelled, "DEDUCT", "SKU-A", 3, null),
                new RecordedEffect(cancelled, "RESTORE", "SKU-A", 3, null));
    }

    @Test
    void orderIdsWrittenPageThroughTheWindowInOrder() {
        List<String> inWindow = IntStream.rangeClosed(1, 5).mapToObj(i -> "LEDGER-" + run + "-w" + i).toList();
        movement(inWindow.get(0), "SKU-A", "DEDUCT", 1, WINDOW_FROM);
        movement(inWindow.get(1), "SKU-A", "DEDUCT", 1, WINDOW_FROM.plusSeconds(1));
        movement(inWindow.get(1), "SKU-B", "DEDUCT", 1, WINDOW_FROM.plusSeconds(1));
        movement(inWindow.get(1), "SKU-A", "RESTORE", 1, WINDOW_FROM.plusSeconds(2));
        movement(inWindow.get(2), "SKU-A", "DEDUCT", 1, WINDOW_TO.minusMillis(1));
        movement(inWindow.get(3), "SKU-A", "DEDUCT", 1, WINDOW_FROM.plusSeconds(3600));
        movement(inWindow.get(4), "SKU-A", "DEDUCT", 1, WINDOW_FROM.plusSeconds(7200));
        // Rows just outside [from, to): the order written before and the one written at its end are not named.
        movement("LEDGER-" + run + "-w0", "SKU-A", "DEDUCT", 1, WINDOW_FROM.minusMillis(1));
        movement("LEDGER-" + run + "-w6", "SKU-A", "DEDUCT", 1, WINDOW_TO);
        // An order written in the window and after it: named once, for its rows in the window.
        movement(inWindow.get(3), "SKU-A", "RESTORE", 1, WINDOW_TO.plusSeconds(60));

        EffectLedgerCalls.pageThroughTheWindow(WINDOW_FROM, WINDOW_TO, inWindow);
    }

    @Test
    void badInputIsAProblemNamingTheField() {
        EffectLedgerCalls.badInputIsAProblemNamingTheField(WINDOW_FROM, WINDOW_TO, "LEDGER-" + run);
    }

    private static void movement(String orderId, String sku, String kind, long quantity, Instant at) {
        CommittedState.execute("insert into stock_movement (order_id, sku, kind, quantity, created_at)"
                + " values (?, ?, ?, ?, ?)", orderId, sku, kind, quantity, LocalDateTime.ofInstant(at, ZoneOffset.UTC));
    }
}
