package dev.orderflow.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.orderflow.suite.Observations.DeadLetterEntry;
import dev.orderflow.suite.Observations.LedgerEntry;
import dev.orderflow.suite.Observations.OrderRow;
import dev.orderflow.suite.Observations.StockMovement;
import dev.orderflow.suite.Observations.Text;
import dev.orderflow.suite.Verdict.Expectations;
import dev.orderflow.suite.Verdict.Poison;

/** The verdict on its own: clean when every effect is there once, and failing on each kind of damage. */
class VerdictTest {

    private static final long STOCK = 100;
    private static final Poison MALFORMED = new Poison("P1:create", "P1", Map.of("inventory_group", "format"));

    /**
     * Order A (2 × SKU-1, 12.50) completed, order B (1 × SKU-2, 3.99) cancelled, order F (1 × SHORT,
     * 7.25) failed and compensated, one poison message.
     */
    private final Map<String, OrderRow> orders = new HashMap<>(Map.of(
            "A", new OrderRow("A", "C1", new BigDecimal("12.50"), "COMPLETED", Map.of("SKU-1", 2L)),
            "B", new OrderRow("B", "C1", new BigDecimal("3.99"), "CANCELLED", Map.of("SKU-2", 1L)),
            "F", new OrderRow("F", "C2", new BigDecimal("7.25"), "FAILED", Map.of("SHORT", 1L))));
    private final List<StockMovement> movements = new ArrayList<>(List.of(
            new StockMovement("A", "SKU-1", "DEDUCT", 2),
            new StockMovement("B", "SKU-2", "DEDUCT", 1),
            new StockMovement("B", "SKU-2", "RESTORE", 1)));
    private final Map<String, Long> stock = new HashMap<>(Map.of("SKU-1", STOCK - 2, "SKU-2", STOCK));
    private final List<LedgerEntry> ledger = new ArrayList<>(List.of(
            new LedgerEntry("A", "C1", "ORDER_CREDIT", 12),
            new LedgerEntry("B", "C1", "ORDER_CREDIT", 3),
            new LedgerEntry("B", "C1", "ORDER_REVERSAL", -3),
            new LedgerEntry("F", "C2", "ORDER_CREDIT", 7),
            new LedgerEntry("F", "C2", "ORDER_FAILURE_REVERSAL", -7)));
    private final Map<String, Long> balances = new HashMap<>(Map.of("C1", 12L, "C2", 0L));
    private final List<Text> texts = new ArrayList<>(List.of(new Text("A", "create", "SENT"),
            new Text("B", "create", "SENT"), new Text("B", "cancel", "SENT"), new Text("F", "create", "WITHDRAWN"),
            new Text("F", "fail", "SENT")));
    private final Map<String, String> states = new HashMap<>(Map.of("A", "COMPLETED", "B", "CANCELLED",
            "F", "FAILED"));
    private final List<DeadLetterEntry> deadLetters = new ArrayList<>(List.of(
            new DeadLetterEntry("inventory_group", "P1:create", "format", 1)));

    /** Inventory rejected F's create: SHORT is never in stock. */
    private final Map<String, Set<String>> rejectedCreates = new HashMap<>(Map.of("inventory_group", Set.of("F")));

    private Verdict verdict() {
        return Verdict.of(new Expectations(Set.of("A", "B", "F"), Set.of("F"), List.of(MALFORMED),
                Set.of("SKU-1", "SKU-2"), STOCK), observations());
    }

    private Observations observations() {
        return new Observations(orders, movements, stock, ledger, balances, texts, states, deadLetters,
                rejectedCreates);
    }

    @Test
    void everyEffectOnceIsClean() {
        Verdict verdict = verdict();
        assertThat(verdict.clean()).as(verdict.problems().toString()).isTrue();
        assertThat(verdict.ordersCancelled()).isEqualTo(1);
        assertThat(verdict.ordersFailed()).isEqualTo(1);
        assertThat(verdict.report(Map.of("broker-restart", 1), 3.0))
                .contains("FAULT-VERDICT {\"pass\":true,\"ordersAccepted\":3,")
                .contains("\"wrongCompensation\":0")
                .contains("\"faults\":{\"broker-restart\":1},\"lost\":0,\"duplicated\":0");
    }

    @Test
    void doubledEffectIsDuplicated() {
        ledger.add(new LedgerEntry("A", "C1", "ORDER_CREDIT", 12));
        balances.put("C1", 24L);

        Verdict verdict = verdict();

        assertThat(verdict.duplicated()).isEqualTo(2); // the second ledger entry, and the balance beyond the orders
        assertThat(verdict.lost()).isZero();
        assertThat(verdict.clean()).isFalse();
        assertThat(verdict.report(Map.of(), 1.0)).contains("\"pass\":false").contains("\"duplicated\":2");
    }

    @Test
    void missingEffectIsLost() {
        texts.remove(new Text("B", "cancel", "SENT"));
        movements.remove(new StockMovement("A", "SKU-1", "DEDUCT", 2));
        stock.put("SKU-1", STOCK);

        Verdict verdict = verdict();

        assertThat(verdict.lost()).isEqualTo(3); // the text, the movement, and the stock above what the orders leave
        assertThat(verdict.duplicated()).isZero();
        assertThat(verdict.clean()).isFalse();
    }

    @Test
    void acceptedOrderWithoutRowIsLost() {
        Verdict verdict = Verdict.of(new Expectations(Set.of("A", "B", "F", "GONE"), Set.of("F"), List.of(MALFORMED),
                Set.of("SKU-1", "SKU-2"), STOCK), observations());

        assertThat(verdict.lost()).isEqualTo(1);
        assertThat(verdict.problems()).anyMatch(p -> p.contains("GONE"));
    }

    @Test
    void consumerThatTookTheCancelFirstMustHaveNoEffectAtAll() {
        ledger.removeIf(e -> e.orderId().equals("B"));
        rejectedCreates.put("points_group", Set.of("B"));
        assertThat(verdict().clean()).as(verdict().problems().toString()).isTrue();

        ledger.add(new LedgerEntry("B", "C1", "ORDER_REVERSAL", -3)); // a reversal of a credit never made
        balances.put("C1", 9L);
        assertThat(verdict().duplicated()).as("the reversal").isEqualTo(1);
        assertThat(verdict().lost()).as("the balance below what the orders add up to").isEqualTo(1);
    }

    @Test
    void cancelledOrderWithoutEffectsIsLostUnlessTheConsumerTookTheCancelFirst() {
        ledger.removeIf(e -> e.orderId().equals("B"));

        assertThat(verdict().lost()).isEqualTo(2); // credit and reversal; the balance nets out either way
    }

    @Test
    void effectOfRolledBackOrderIsPhantom() {
        ledger.add(new LedgerEntry("ROLLED-BACK", "C9", "ORDER_CREDIT", 5));

        assertThat(verdict().phantom()).isEqualTo(1);
    }

    @Test
    void pendingAndWrongStatesAreCounted() {
        states.put("A", "PENDING");
        states.put("B", "COMPLETED");

        Verdict verdict = verdict();

        assertThat(verdict.pending()).isEqualTo(1);
        assertThat(verdict.wrongState()).isEqualTo(1);
    }

    @Test
    void aFailedOrderThatKeepsItsPointsOrWasConfirmedIsWronglyCompensated() {
        ledger.removeIf(e -> e.reason().equals("ORDER_FAILURE_REVERSAL"));
        balances.put("C2", 7L);
        Verdict verdict = verdict();
        assertThat(verdict.wrongCompensation()).as("points kept").isEqualTo(1);
        assertThat(verdict.lost()).as("the reversal").isEqualTo(1);

        ledger.add(new LedgerEntry("F", "C2", "ORDER_FAILURE_REVERSAL", -7));
        balances.put("C2", 0L);
        texts.set(texts.indexOf(new Text("F", "create", "WITHDRAWN")), new Text("F", "create", "SENT"));
        assertThat(verdict().wrongCompensation()).as("a failed order confirmed").isEqualTo(1);
    }

    @Test
    void aFailureOnlyStatusServiceKnowsIsPendingThenUncompensated() {
        orders.put("F", new OrderRow("F", "C2", new BigDecimal("7.25"), "CREATED", Map.of("SHORT", 1L)));
        ledger.removeIf(e -> e.reason().equals("ORDER_FAILURE_REVERSAL"));
        texts.removeIf(t -> t.eventType().equals("fail"));
        texts.set(texts.indexOf(new Text("F", "create", "WITHDRAWN")), new Text("F", "create", "HELD"));
        balances.put("C2", 7L);
        assertThat(verdict().pending()).as("order-service has not learned it yet").isGreaterThanOrEqualTo(1);
        assertThat(verdict().clean()).isFalse();

        orders.put("F", new OrderRow("F", "C2", new BigDecimal("7.25"), "COMPLETED", Map.of("SHORT", 1L)));
        assertThat(verdict().wrongCompensation()).as("FAILED at status-service, COMPLETED at order-service")
                .isEqualTo(1);
        assertThat(verdict().wrongState()).as("a line never in stock, yet completed").isEqualTo(1);
    }

    @Test
    void aFailBeforeItsCreateLeavesOnlyTheFailureText() {
        ledger.removeIf(e -> e.orderId().equals("F"));
        texts.removeIf(t -> t.orderId().equals("F") && t.eventType().equals("create"));
        rejectedCreates.put("points_group", Set.of("F"));
        rejectedCreates.put("sms_group", Set.of("F"));
        assertThat(verdict().clean()).as(verdict().problems().toString()).isTrue();
    }

    @Test
    void poisonMissingFromItsDlqOrWithAnotherClassOrRetriedIsWrongDlq() {
        deadLetters.clear();
        assertThat(verdict().wrongDlq()).as("missing").isEqualTo(1);

        deadLetters.add(new DeadLetterEntry("inventory_group", "P1:create", "system", 1));
        assertThat(verdict().wrongDlq()).as("wrong class").isEqualTo(1);

        deadLetters.set(0, new DeadLetterEntry("inventory_group", "P1:create", "format", 3));
        assertThat(verdict().wrongDlq()).as("after three attempts").isEqualTo(1);

        deadLetters.set(0, new DeadLetterEntry("sms_group", "P1:create", "format", 1));
        assertThat(verdict().wrongDlq()).as("in another group's DLQ").isEqualTo(1);
    }
}
