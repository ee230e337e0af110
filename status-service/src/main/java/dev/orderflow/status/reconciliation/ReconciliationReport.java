package dev.orderflow.status.reconciliation;

import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The result of one reconciliation run.
 *
 * @param ranAt         when it ran
 * @param from          orders created at or after this instant were checked...
 * @param to            ...and before this one
 * @param ordersChecked orders in the window
 * @param findings      sorted by order, consumer, kind
 */
public record ReconciliationReport(Instant ranAt, Instant from, Instant to, int ordersChecked, List<Finding> findings) {

    public ReconciliationReport {
        findings = findings.stream()
                .sorted(Comparator.comparing(Finding::orderId).thenComparing(Finding::consumer)
                        .thenComparing(Finding::kind))
                .toList();
    }

    /** Findings per kind, every kind present (0 when none). */
    public Map<FindingKind, Integer> counts() {
        Map<FindingKind, Integer> counts = new EnumMap<>(FindingKind.class);
        for (FindingKind kind : FindingKind.values()) {
            counts.put(kind, 0);
        }
        findings.forEach(f -> counts.merge(f.kind(), 1, Integer::sum));
        return counts;
    }
}
