package dev.orderflow.status.reconciliation;

import java.time.Instant;
import java.util.Collections;
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
 * @param findings      sorted by order, consumer, kind; at most {@link ReconciliationConfig#maxFindings()}
 * @param counts        every finding per kind, every kind present (0 when none), listed or not
 */
public record ReconciliationReport(Instant ranAt, Instant from, Instant to, int ordersChecked, List<Finding> findings,
        Map<FindingKind, Integer> counts) {

    public ReconciliationReport {
        findings = findings.stream()
                .sorted(Comparator.comparing(Finding::orderId).thenComparing(Finding::consumer)
                        .thenComparing(Finding::kind))
                .toList();
        counts = Collections.unmodifiableMap(new EnumMap<>(counts));
    }

    /** Findings counted but not listed, because the run found more than the report lists. */
    public int findingsOmitted() {
        return counts.values().stream().mapToInt(Integer::intValue).sum() - findings.size();
    }
}
