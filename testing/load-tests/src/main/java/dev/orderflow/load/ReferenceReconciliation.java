package dev.orderflow.load;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.orderflow.order.events.OrderItem;
import dev.orderflow.suite.OrderStream.AcceptedOrder;

/**
 * The Spring Boot reference's reconciliation ({@link ReferenceRun}): what its tables must hold
 * after the accepted orders, derived as for our suite (stock = initial − the orders' quantities
 * per SKU; points = Σ floor(amount) per customer, points-service at rate 1; one SMS row and a
 * {@code completed_at} per order; every order stored with the amount its 201 answer gave, no
 * other order).
 *
 * @param orderAmounts  {@code orders}: id → amount
 * @param stock         {@code stock}: sku → available
 * @param points        {@code points}: customer → balance
 * @param smsPerOrder   {@code sms_log}: order id → rows
 * @param completed     order ids whose {@code order_flags.completed_at} is set
 */
public record ReferenceReconciliation(Map<String, BigDecimal> orderAmounts, Map<String, Long> stock,
        Map<String, Long> points, Map<String, Integer> smsPerOrder, Set<String> completed) {

    /** Every mismatch, one line each; none when the tables hold exactly what the accepted orders imply. */
    public List<String> problems(Collection<AcceptedOrder> accepted, Collection<String> skus, long initialStock) {
        List<String> problems = new ArrayList<>();
        Map<String, Long> expectedStock = new HashMap<>();
        skus.forEach(sku -> expectedStock.put(sku, initialStock));
        Map<String, Long> expectedPoints = new HashMap<>();
        Set<String> acceptedIds = new TreeSet<>();
        for (AcceptedOrder order : accepted) {
            acceptedIds.add(order.orderId());
            for (OrderItem item : order.items()) {
                expectedStock.merge(item.sku(), -(long) item.quantity(), Long::sum);
            }
            expectedPoints.merge(order.customerId(), order.amount().setScale(0, RoundingMode.FLOOR).longValueExact(),
                    Long::sum);
            BigDecimal stored = orderAmounts.get(order.orderId());
            if (stored == null) {
                problems.add("order " + order.orderId() + " accepted but not in orders");
            } else if (stored.compareTo(order.amount()) != 0) {
                problems.add(String.format(Locale.ROOT, "order %s: amount %s stored, %s answered", order.orderId(),
                        stored.toPlainString(), order.amount().toPlainString()));
            }
            int texts = smsPerOrder.getOrDefault(order.orderId(), 0);
            if (texts != 1) {
                problems.add("order " + order.orderId() + ": " + texts + " sms_log rows");
            }
            if (!completed.contains(order.orderId())) {
                problems.add("order " + order.orderId() + ": no completed_at");
            }
        }
        new TreeSet<>(orderAmounts.keySet()).stream().filter(id -> !acceptedIds.contains(id))
                .forEach(id -> problems.add("order " + id + " in orders but never accepted"));
        new TreeSet<>(smsPerOrder.keySet()).stream().filter(id -> !acceptedIds.contains(id))
                .forEach(id -> problems.add("sms_log rows for order " + id + ", never accepted"));
        compare("stock of", expectedStock, stock, problems);
        compare("points of", expectedPoints, points, problems);
        return problems;
    }

    private static void compare(String what, Map<String, Long> expected, Map<String, Long> actual, List<String> problems) {
        Set<String> keys = new TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (String key : keys) {
            Long want = expected.get(key);
            Long have = actual.get(key);
            if (want == null || !want.equals(have)) {
                problems.add(String.format(Locale.ROOT, "%s %s: %s, expected %s", what, key, have, want));
            }
        }
    }
}
