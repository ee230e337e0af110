package dev.orderflow.sms;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.ledger.RecordedEffect;
import dev.orderflow.rest.fuzz.EffectLedgerCalls;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.common.mapper.TypeRef;

/**
 * {@code /ledger/effects}: the texts as reconciliation reads them, from rows written with controlled
 * {@code created_at} (in 2002, where no other test writes) and due in 2100, so that neither the
 * dispatcher nor the purge touches them. Who may call: {@link SmsApiTest}.
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class EffectLedgerApiTest {

    private static final Instant WINDOW_FROM = Instant.parse("2002-03-01T00:00:00Z");
    private static final Instant WINDOW_TO = WINDOW_FROM.plus(Duration.ofDays(1));

    /** Not due for a claim, and never old enough for the purge. */
    private static final LocalDateTime NEVER_DUE = LocalDateTime.of(2100, 1, 1, 0, 0);

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void effectsOfAreEveryTextOfTheNamedOrdersAndNoOther() {
        String completed = "LEDGER-" + run + "-completed";
        String cancelled = "LEDGER-" + run + "-cancelled";
        String failed = "LEDGER-" + run + "-failed";
        String other = "LEDGER-" + run + "-other";
        Instant at = Instant.parse("2002-06-01T12:00:00Z");
        text(completed + ":create", completed, "CREATE", "SENT", at);
        text(cancelled + ":create", cancelled, "CREATE", "WITHDRAWN", at);
        text(cancelled + ":cancel", cancelled, "CANCEL", "PENDING", at.plusSeconds(60));
        text(failed + ":create", failed, "CREATE", "HELD", at);
        text(failed + ":fail", failed, "FAIL", "FAILED", at.plusSeconds(60));
        // The same event of one order twice (business keys differ): reconciliation must see both to report it.
        text(failed + ":fail:again", failed, "FAIL", "SENT", at.plusSeconds(120));
        text(other + ":create", other, "CREATE", "SENT", at);

        List<RecordedEffect> effects = given().contentType("application/json")
                .body(List.of(completed, cancelled, failed, "LEDGER-" + run + "-unknown")).post("/ledger/effects")
                .then().statusCode(200).extract().as(new TypeRef<List<RecordedEffect>>() {
                });

        assertThat(effects).containsExactlyInAnyOrder(
                new RecordedEffect(completed, "CREATE", "", 1, "SENT"),
                new RecordedEffect(cancelled, "CREATE", "", 1, "WITHDRAWN"),
                new RecordedEffect(cancelled, "CANCEL", "", 1, "PENDING"),
                new RecordedEffect(failed, "CREATE", "", 1, "HELD"),
                new RecordedEffect(failed, "FAIL", "", 1, "FAILED"),
                new RecordedEffect(failed, "FAIL", "", 1, "SENT"));
    }

    @Test
    void orderIdsWrittenPageThroughTheWindowInOrder() {
        List<String> inWindow = IntStream.rangeClosed(1, 5).mapToObj(i -> "LEDGER-" + run + "-w" + i).toList();
        text(inWindow.get(0), "CREATE", WINDOW_FROM);
        text(inWindow.get(1), "CREATE", WINDOW_FROM.plusSeconds(1));
        text(inWindow.get(1), "CANCEL", WINDOW_FROM.plusSeconds(2));
        text(inWindow.get(2), "CREATE", WINDOW_TO.minusMillis(1));
        text(inWindow.get(3), "CREATE", WINDOW_FROM.plusSeconds(3600));
        text(inWindow.get(4), "CREATE", WINDOW_FROM.plusSeconds(7200));
        // Rows just outside [from, to): the order written before and the one written at its end are not named.
        text("LEDGER-" + run + "-w0", "CREATE", WINDOW_FROM.minusMillis(1));
        text("LEDGER-" + run + "-w6", "CREATE", WINDOW_TO);
        // An order written in the window and after it: named once, for its rows in the window.
        text(inWindow.get(3), "CANCEL", WINDOW_TO.plusSeconds(60));

        EffectLedgerCalls.pageThroughTheWindow(WINDOW_FROM, WINDOW_TO, inWindow);
    }

    @Test
    void badInputIsAProblemNamingTheField() {
        EffectLedgerCalls.badInputIsAProblemNamingTheField(WINDOW_FROM, WINDOW_TO, "LEDGER-" + run);
    }

    private static void text(String orderId, String eventType, Instant at) {
        text(orderId + ":" + eventType.toLowerCase(Locale.ROOT), orderId, eventType, "SENT", at);
    }

    private static void text(String businessKey, String orderId, String eventType, String status, Instant at) {
        CommittedState.execute("insert into sms_outbox (business_key, order_id, event_type, phone, text, status,"
                + " next_attempt_at, created_at, updated_at) values (?, ?, ?, '+819000000000', 'ledger', ?, ?, ?, ?)",
                businessKey, orderId, eventType, status, NEVER_DUE, utc(at), utc(at));
    }

    private static LocalDateTime utc(Instant at) {
        return LocalDateTime.ofInstant(at, ZoneOffset.UTC);
    }
}
