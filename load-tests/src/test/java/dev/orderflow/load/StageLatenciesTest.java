package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class StageLatenciesTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void percentilesPerConsumerAndStageAndWhoTheSlowestOrdersWaitedFor() {
        Map<String, LoadRun.Timing> timings = new HashMap<>();
        List<StageLatencies.ReportRow> rows = new ArrayList<>();
        // 100 orders: inventory commits after 10 ms and is recorded 20 ms later; points after 30 + 40 ms.
        // Order 99 waits 1,000 ms for inventory's commit: it is the slowest 1 %, waiting before the commit.
        for (int i = 0; i < 100; i++) {
            String id = "O" + i;
            long inventoryCommit = i == 99 ? 1_000 : 10;
            timings.put(id, new LoadRun.Timing(T0, T0.plusMillis(Math.max(inventoryCommit + 20, 70))));
            rows.add(new StageLatencies.ReportRow(id, "inventory", T0.plusMillis(inventoryCommit),
                    T0.plusMillis(inventoryCommit + 20)));
            rows.add(new StageLatencies.ReportRow(id, "points", T0.plusMillis(30), T0.plusMillis(70)));
        }
        // Reports of orders outside the run (warm-up) are left out.
        rows.add(new StageLatencies.ReportRow("WARMUP", "points", T0, T0.plusMillis(5_000)));

        List<String> lines = StageLatencies.of(timings, rows).lines();

        assertThat(lines).contains("  inventory    10/10/10/1000 | 20/20/20/20", "  points       30/30/30/30 | 40/40/40/40");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("slowest 1 % (1 orders, end-to-end >= 1020 ms): reported last"
                + " by {inventory=1}; that consumer's time mostly before its commit in 1, after it in 0");
    }
}
