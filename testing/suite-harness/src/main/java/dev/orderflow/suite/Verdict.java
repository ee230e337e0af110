package dev.orderflow.suite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.orderflow.order.events.OwedEffects;
import dev.orderflow.suite.Observations.DeadLetterEntry;
import dev.orderflow.suite.Observations.OrderRow;
import dev.orderflow.suite.Observations.Text;

/**
 * The reconciliation verdict of a fault run: every order against every consumer's effects, by how
 * the order ended at order-service (COMPLETED, CANCELLED, or FAILED: meant to fail, and compensated).
 *
 * <ul>
 * <li><b>lost</b>: an order the client got a 201 for has no row; an effect a consumer owes the
 * order ({@link OwedEffects}) is missing or has another amount; a balance is short of what the
 * orders add up to.</li>
 * <li><b>duplicated</b>: an effect applied more than once or owed by nobody, or a balance beyond
 * what the orders add up to.</li>
 * <li><b>phantom</b>: an effect for an order with no row (a rolled-back order) that is not a
 * poison message of the run.</li>
 * <li><b>wrongState</b>: a status other than COMPLETED (CANCELLED for a cancelled order, FAILED for
 * a failed one); an order meant to fail that completed, or one not meant to fail that failed.</li>
 * <li><b>pending</b>: no status, or PENDING; an order whose end order-service has not learned; a
 * text still waiting to be sent.</li>
 * <li><b>wrongDlq</b>: a poison message not in a group's DLQ exactly once, with the expected class,
 * after one attempt.</li>
 * <li><b>wrongCompensation</b>: a failed order whose points do not net to 0, whose confirmation was
 * sent, or that status-service failed while order-service did not (an uncompensated failure).</li>
 * </ul>
 * Any non-zero count fails the run.
 */
public record Verdict(int ordersAccepted, int ordersInDatabase, int ordersCancelled, int ordersFailed, int lost,
        int duplicated, int phantom, int wrongState, int pending, int wrongDlq, int wrongCompensation,
        List<String> problems) {

    /** Problems kept for the report; the counts cover all of them. */
    private static final int PROBLEMS_KEPT = 30;

    /** A poison message the run injected: its key and, per consumer group, the DLQ class expected. */
    public record Poison(String key, String orderId, Map<String, String> expectedClassByGroup) {
    }

    /**
     * @param accepted      ids of the orders the clients got a 201 for
     * @param failing       those meant to fail (a line never in stock): FAILED, or CANCELLED if a cancel came first
     * @param poison        the poison messages injected
     * @param skus          SKUs whose stock the orders move, each seeded with {@code initialStock}
     */
    public record Expectations(Set<String> accepted, Set<String> failing, List<Poison> poison, Set<String> skus,
            long initialStock) {
    }

    public boolean clean() {
        return lost == 0 && duplicated == 0 && phantom == 0 && wrongState == 0 && pending == 0 && wrongDlq == 0
                && wrongCompensation == 0;
    }

    public static Verdict of(Expectations expected, Observations observed) {
        Counter counter = new Counter();
        Map<String, OrderRow> orders = observed.orders();
        Set<String> poisonIds = expected.poison().stream().map(Poison::orderId).collect(Collectors.toSet());

        for (String id : expected.accepted()) {
            if (!orders.containsKey(id)) {
                counter.lost("order " + id + " got 201 but has no row");
            }
        }

        Map<String, Map<String, Integer>> movements = new HashMap<>();
        observed.stockMovements().forEach(m -> movements.computeIfAbsent(m.orderId(), k -> new HashMap<>())
                .merge(effectKey(m.kind(), m.sku(), m.quantity()), 1, Integer::sum));
        Map<String, Map<String, Integer>> ledger = new HashMap<>();
        Map<String, Long> pointsByOrder = new HashMap<>();
        observed.ledger().forEach(e -> {
            ledger.computeIfAbsent(e.orderId(), k -> new HashMap<>()).merge(effectKey(e.reason(), "", e.points()), 1,
                    Integer::sum);
            pointsByOrder.merge(e.orderId(), e.points(), Long::sum);
        });
        Map<String, Map<String, Integer>> texts = new HashMap<>();
        Map<String, List<Text>> textsByOrder = new HashMap<>();
        observed.texts().forEach(t -> {
            texts.computeIfAbsent(t.orderId(), k -> new HashMap<>())
                    .merge(effectKey(t.eventType().toUpperCase(Locale.ROOT), "", 1), 1, Integer::sum);
            textsByOrder.computeIfAbsent(t.orderId(), k -> new ArrayList<>()).add(t);
        });

        Map<String, Long> expectedStock = new LinkedHashMap<>();
        expected.skus().forEach(sku -> expectedStock.put(sku, expected.initialStock()));
        Map<String, Long> expectedBalances = new HashMap<>();
        int cancelled = 0;
        int failed = 0;
        for (OrderRow order : orders.values()) {
            String id = order.orderId();
            long points = OwedEffects.credit(order.amount(), BigDecimal.ONE);
            boolean meantToFail = expected.failing().contains(id);
            if (order.cancelled()) {
                cancelled++;
            } else if (order.failed()) {
                failed++;
            } else if (!meantToFail) {
                // Only an order that completes keeps its deduction and its points.
                order.quantities().forEach((sku, quantity) -> expectedStock.merge(sku, -quantity, Long::sum));
                expectedBalances.merge(order.customerId(), points, Long::sum);
            }
            expectedBalances.merge(order.customerId(), 0L, Long::sum);

            OwedEffects.Order owing = new OwedEffects.Order(order.amount(), order.status(), order.quantities());
            Map<String, Integer> wanted = owed(OwedEffects.Consumer.INVENTORY, owing, observed, id);
            Map<String, Integer> wantedLedger = owed(OwedEffects.Consumer.POINTS, owing, observed, id);
            Map<String, Integer> wantedTexts = owed(OwedEffects.Consumer.SMS, owing, observed, id);
            compare(counter, id, "stock movement", wanted, movements.getOrDefault(id, Map.of()));
            compare(counter, id, "points entry", wantedLedger, ledger.getOrDefault(id, Map.of()));
            compare(counter, id, "text", wantedTexts, texts.getOrDefault(id, Map.of()));
            checkTexts(counter, order, textsByOrder.getOrDefault(id, List.of()));

            String state = observed.states().get(id);
            String wantedState = order.cancelled() ? "CANCELLED" : order.failed() ? "FAILED" : "COMPLETED";
            if (state == null || state.equals("PENDING")) {
                counter.pending("order " + id + " is " + (state == null ? "unknown to status-service" : state));
            } else if ("FAILED".equals(state) && !order.failed() && !order.cancelled()) {
                if ("CREATED".equals(order.status())) {
                    counter.pending("order " + id + " is FAILED at status-service, not yet at order-service");
                } else {
                    counter.wrongCompensation("order " + id + " is FAILED at status-service but " + order.status()
                            + " at order-service: uncompensated");
                }
            } else if (!state.equals(wantedState)) {
                counter.wrongState("order " + id + " is " + state + ", expected " + wantedState);
            } else if ("CREATED".equals(order.status())) {
                counter.pending("order " + id + " is " + state + " but order-service has not learned it yet");
            }
            if (meantToFail && !order.failed() && !order.cancelled() && !"CREATED".equals(order.status())) {
                counter.wrongState("order " + id + " has a line never in stock but is " + order.status());
            }
            if (!meantToFail && order.failed()) {
                counter.wrongState("order " + id + " failed, though every line was in stock");
            }
            if (order.failed() && pointsByOrder.getOrDefault(id, 0L) != 0) {
                counter.wrongCompensation("failed order " + id + " keeps " + pointsByOrder.get(id) + " points");
            }
        }

        Set<String> effectIds = new HashSet<>(movements.keySet());
        effectIds.addAll(ledger.keySet());
        effectIds.addAll(texts.keySet());
        for (String id : effectIds) {
            if (!orders.containsKey(id) && !poisonIds.contains(id)) {
                counter.phantom("effects for order " + id + " which has no row (rolled back?)");
            }
        }

        expectedStock.forEach((sku, wanted) -> compareBalance(counter, "stock of " + sku, wanted,
                observed.stock().getOrDefault(sku, 0L), true));
        expectedBalances.forEach((customer, wanted) -> compareBalance(counter, "points of " + customer, wanted,
                observed.balances().getOrDefault(customer, 0L), false));

        for (Poison poison : expected.poison()) {
            poison.expectedClassByGroup().forEach((group, failureClass) -> {
                List<DeadLetterEntry> entries = observed.deadLetters().stream()
                        .filter(d -> d.group().equals(group) && poison.key().equals(d.key())).toList();
                if (entries.size() != 1 || !failureClass.equals(entries.get(0).failureClass())
                        || entries.get(0).attempts() != 1) {
                    counter.wrongDlq("poison " + poison.key() + " in %DLQ%" + group + ": expected one " + failureClass
                            + " entry after 1 attempt, found " + entries);
                }
            });
        }
        return new Verdict(expected.accepted().size(), orders.size(), cancelled, failed, counter.lost,
                counter.duplicated, counter.phantom, counter.wrongState, counter.pending, counter.wrongDlq,
                counter.wrongCompensation, List.copyOf(counter.problems));
    }

    /** What {@code consumer} owes the order ({@link OwedEffects}), as effect keys with how often each is owed. */
    private static Map<String, Integer> owed(OwedEffects.Consumer consumer, OwedEffects.Order order,
            Observations observed, String orderId) {
        Map<String, Integer> owed = new HashMap<>();
        OwedEffects.owedBy(consumer, order, observed.createRejected(consumer.group(), orderId), BigDecimal.ONE)
                .forEach(effect -> owed.merge(effectKey(effect.kind(), effect.subject(), effect.amount()), 1,
                        Integer::sum));
        return owed;
    }

    /** An effect as the report names it: kind, SKU if any, amount. */
    private static String effectKey(String kind, String subject, long amount) {
        return OwedEffects.Effect.keyOf(kind, subject) + " " + amount;
    }

    /**
     * Where an order's texts stand: a completed order's confirmation sent; a failed order's never
     * sent (withdrawn), its failure text sent; a cancelled order's notice sent (its confirmation sent,
     * or withdrawn when the cancel came before the order completed). A text still held or on its way
     * is pending.
     */
    private static void checkTexts(Counter counter, OrderRow order, List<Text> texts) {
        for (Text text : texts) {
            String what = "order " + order.orderId() + ": " + text.eventType() + " text " + text.status();
            boolean confirmation = text.eventType().equals("create");
            switch (text.status()) {
                case "SENT" -> {
                    if (confirmation && order.failed()) {
                        counter.wrongCompensation(what + ": a failed order was confirmed");
                    }
                }
                case "WITHDRAWN" -> {
                    if (!order.failed() && !order.cancelled()) {
                        counter.lost(what + ": the order completed");
                    }
                }
                case "HELD", "PENDING" -> counter.pending(what);
                default -> counter.lost(what);
            }
        }
    }

    private static void compare(Counter counter, String orderId, String what, Map<String, Integer> wanted,
            Map<String, Integer> actual) {
        wanted.forEach((effect, times) -> {
            int found = actual.getOrDefault(effect, 0);
            if (found < times) {
                counter.lost("order " + orderId + ": " + what + " " + effect + " missing");
            } else if (found > times) {
                counter.duplicated("order " + orderId + ": " + what + " " + effect + " " + found + " times");
            }
        });
        actual.forEach((effect, found) -> {
            if (!wanted.containsKey(effect)) {
                counter.duplicated("order " + orderId + ": unexpected " + what + " " + effect + " (" + found + "x)");
            }
        });
    }

    /** A stock above what the orders leave means a lost deduction; points above, a duplicated credit. */
    private static void compareBalance(Counter counter, String what, long wanted, long actual, boolean stock) {
        if (wanted == actual) {
            return;
        }
        String problem = what + " is " + actual + ", the orders add up to " + wanted;
        if ((actual > wanted) == stock) {
            counter.lost(problem);
        } else {
            counter.duplicated(problem);
        }
    }

    /** The table and the machine-readable line of the report. */
    public String report(Map<String, Integer> faults, double quiescenceSeconds) {
        StringBuilder table = new StringBuilder("\n==== fault run verdict ====\n");
        table.append(String.format("%-34s %d%n", "orders accepted (201)", ordersAccepted));
        table.append(String.format("%-34s %d%n", "orders in order database", ordersInDatabase));
        table.append(String.format("%-34s %d%n", "orders cancelled", ordersCancelled));
        table.append(String.format("%-34s %d%n", "orders failed (compensated)", ordersFailed));
        faults.forEach((kind, count) -> table.append(String.format("%-34s %d%n", "fault " + kind, count)));
        table.append(String.format("%-34s %d%n", "lost", lost));
        table.append(String.format("%-34s %d%n", "duplicated", duplicated));
        table.append(String.format("%-34s %d%n", "phantom (effects of rolled back)", phantom));
        table.append(String.format("%-34s %d%n", "wrong state", wrongState));
        table.append(String.format("%-34s %d%n", "pending after quiescence", pending));
        table.append(String.format("%-34s %d%n", "wrong DLQ", wrongDlq));
        table.append(String.format("%-34s %d%n", "wrong compensation", wrongCompensation));
        table.append(String.format("%-34s %.1f s%n", "time to quiescence after last fault", quiescenceSeconds));
        table.append(String.format("%-34s %s%n", "verdict", clean() ? "PASS" : "FAIL"));
        problems.forEach(p -> table.append("  - ").append(p).append('\n'));
        String faultJson = faults.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                .collect(Collectors.joining(",", "{", "}"));
        table.append(String.format(java.util.Locale.ROOT,
                "FAULT-VERDICT {\"pass\":%b,\"ordersAccepted\":%d,\"ordersInDatabase\":%d,\"ordersCancelled\":%d,"
                        + "\"ordersFailed\":%d,\"faults\":%s,\"lost\":%d,\"duplicated\":%d,\"phantom\":%d,"
                        + "\"wrongState\":%d,\"pending\":%d,\"wrongDlq\":%d,\"wrongCompensation\":%d,"
                        + "\"quiescenceSeconds\":%.1f}",
                clean(), ordersAccepted, ordersInDatabase, ordersCancelled, ordersFailed, faultJson, lost, duplicated,
                phantom, wrongState, pending, wrongDlq, wrongCompensation, quiescenceSeconds));
        return table.toString();
    }

    private static final class Counter {
        int lost;
        int duplicated;
        int phantom;
        int wrongState;
        int pending;
        int wrongDlq;
        int wrongCompensation;
        final List<String> problems = new ArrayList<>();

        void lost(String problem) { lost++; keep(problem); }
        void duplicated(String problem) { duplicated++; keep(problem); }
        void phantom(String problem) { phantom++; keep(problem); }
        void wrongState(String problem) { wrongState++; keep(problem); }
        void pending(String problem) { pending++; keep(problem); }
        void wrongDlq(String problem) { wrongDlq++; keep(problem); }
        void wrongCompensation(String problem) { wrongCompensation++; keep(problem); }

        private void keep(String problem) {
            if (problems.size() < PROBLEMS_KEPT) {
                problems.add(problem);
            }
        }
    }
}
