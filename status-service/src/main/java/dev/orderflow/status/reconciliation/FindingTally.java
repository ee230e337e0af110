package dev.orderflow.status.reconciliation;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A run's findings: every one counted by kind, the first {@code limit} kept for the report. */
final class FindingTally {

    private final int limit;
    private final List<Finding> kept = new ArrayList<>();
    private final Map<FindingKind, Integer> counts = new EnumMap<>(FindingKind.class);

    FindingTally(int limit) {
        this.limit = limit;
        for (FindingKind kind : FindingKind.values()) {
            counts.put(kind, 0);
        }
    }

    void add(Finding finding) {
        counts.merge(finding.kind(), 1, Integer::sum);
        if (kept.size() < limit) {
            kept.add(finding);
        }
    }

    List<Finding> kept() {
        return kept;
    }

    /** Findings per kind, every kind present (0 when none). */
    Map<FindingKind, Integer> counts() {
        return counts;
    }
}
