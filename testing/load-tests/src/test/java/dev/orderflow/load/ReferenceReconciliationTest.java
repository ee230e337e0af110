package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.OrderItem;
import dev.orderflow.suite.OrderStream.AcceptedOrder;

class ReferenceReconciliationTest {

    private static final List<String> SKUS = List.of("A", "B", "C");
    private static final List<AcceptedOrder> ACCEPTED = List.of(
            new AcceptedOrder("o1", "c1", List.of(new OrderItem("A", 2, new BigDecimal("10.50")),
                    new OrderItem("B", 1, new BigDecimal("0.99"))), new BigDecimal("21.99")),
            new AcceptedOrder("o2", "c1", List.of(new OrderItem("A", 1, new BigDecimal("5.00"))), new BigDecimal("5.00")),
            new AcceptedOrder("o3", "c2", List.of(new OrderItem("C", 3, new BigDecimal("0.33"))), new BigDecimal("0.99")));

    private static Map<String, BigDecimal> amounts() {
        return new HashMap<>(Map.of("o1", new BigDecimal("21.99"), "o2", new BigDecimal("5.00"), "o3",
                new BigDecimal("0.99")));
    }

    private static Map<String, Long> stock() {
        return new HashMap<>(Map.of("A", 97L, "B", 99L, "C", 97L));
    }

    private static Map<String, Long> points() {
        // floor(21.99) + floor(5.00) for c1, floor(0.99) for c2 (a customer with 0 points still has a row)
        return new HashMap<>(Map.of("c1", 26L, "c2", 0L));
    }

    private static Map<String, Integer> sms() {
        return new HashMap<>(Map.of("o1", 1, "o2", 1, "o3", 1));
    }

    @Test
    void tablesThatHoldExactlyWhatTheOrdersImplyHaveNoProblem() {
        ReferenceReconciliation tables = new ReferenceReconciliation(amounts(), stock(), points(), sms(),
                Set.of("o1", "o2", "o3"));
        assertThat(tables.problems(ACCEPTED, SKUS, 100)).isEmpty();
    }

    @Test
    void everyMismatchIsOneProblem() {
        Map<String, BigDecimal> amounts = amounts();
        amounts.put("o2", new BigDecimal("5.01"));
        amounts.put("o9", BigDecimal.ONE);
        Map<String, Long> stock = stock();
        stock.put("A", 96L);
        Map<String, Long> points = points();
        points.put("c1", 52L);
        Map<String, Integer> sms = sms();
        sms.put("o1", 2);
        sms.remove("o3");
        ReferenceReconciliation tables = new ReferenceReconciliation(amounts, stock, points, sms, Set.of("o1", "o3"));
        assertThat(tables.problems(ACCEPTED, SKUS, 100)).containsExactlyInAnyOrder(
                "order o2: amount 5.01 stored, 5.00 answered",
                "order o1: 2 sms_log rows",
                "order o3: 0 sms_log rows",
                "order o2: no completed_at",
                "order o9 in orders but never accepted",
                "stock of A: 96, expected 97",
                "points of c1: 52, expected 26");
    }

    @Test
    void aMissingOrderAndAnUnknownSkuOrCustomerAreProblems() {
        Map<String, BigDecimal> amounts = amounts();
        amounts.remove("o3");
        Map<String, Long> stock = stock();
        stock.put("Z", 1L);
        Map<String, Long> points = points();
        points.remove("c2");
        ReferenceReconciliation tables = new ReferenceReconciliation(amounts, stock, points, sms(),
                Set.of("o1", "o2", "o3"));
        assertThat(tables.problems(ACCEPTED, SKUS, 100)).containsExactlyInAnyOrder(
                "order o3 accepted but not in orders", "stock of Z: 1, expected null", "points of c2: null, expected 0");
    }
}
