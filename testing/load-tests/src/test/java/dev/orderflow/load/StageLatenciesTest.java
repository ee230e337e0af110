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
    void percentilesPerConsumerAndStageAndWhereTheSlowestOrdersWaited() {
        Map<String, LoadRun.Timing> timings = new HashMap<>();
        List<StageLatencies.ReportRow> rows = new ArrayList<>();
        // 200 orders. inventory claims after 10 ms; its batch and relay send 5 ms later, the broker stores
        // 1 ms later, status-service records 14 ms later. points: 30 ms, then 10, 2 and 28 ms.
        // Order 99 waits 1,000 ms for inventory's claim; order 198 waits 900 ms for status-service to
        // record points' report: together the slowest 1 %. Points' message of order 50 was not found.
        for (int i = 0; i < 200; i++) {
            String id = "O" + i;
            long inventoryClaim = i == 99 ? 1_000 : 10;
            long pointsRecord = i == 198 ? 900 : 28;
            timings.put(id, new LoadRun.Timing(T0, T0.plusMillis(Math.max(inventoryClaim + 20, 42 + pointsRecord))));
            rows.add(report(id, "inventory", inventoryClaim, 5, 1, 14));
            rows.add(i == 50
                    ? new StageLatencies.ReportRow(id, "points", T0.plusMillis(30), null, null, T0.plusMillis(70))
                    : report(id, "points", 30, 10, 2, pointsRecord));
        }
        // Reports of orders outside the run (warm-up) are left out.
        rows.add(report("WARMUP", "points", 0, 1, 1, 5_000));

        List<String> lines = StageLatencies.of(timings, rows).lines();

        assertThat(lines).contains("  inventory    10/10/10/1000 | 20/20/20/20 = 5/5/5/5 + 1/1/1/1 + 14/14/14/14",
                "  points       30/30/30/30 | 40/40/40/912 = 10/10/10/10 + 2/2/2/2 + 28/28/28/900"
                        + " (1 report(s) not found on order_result_topic)");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("slowest 1 % (2 orders, end-to-end >= 942 ms): reported last"
                + " by {inventory=1, points=1}; that report's longest stage: {before claim=1, status-service=1}");
    }

    /** A message claimed {@code claimMs} after T0, its report sent, stored and recorded after the given further delays. */
    private static StageLatencies.ReportRow report(String orderId, String consumer, long claimMs, long batchAndRelayMs,
            long storeMs, long recordMs) {
        return new StageLatencies.ReportRow(orderId, consumer, T0.plusMillis(claimMs),
                T0.plusMillis(claimMs + batchAndRelayMs), T0.plusMillis(claimMs + batchAndRelayMs + storeMs),
                T0.plusMillis(claimMs + batchAndRelayMs + storeMs + recordMs));
    }
}
