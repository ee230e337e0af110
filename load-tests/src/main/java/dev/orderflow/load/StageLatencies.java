package dev.orderflow.load;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where an order's end-to-end time goes, from status-service's rows: for each consumer, the time
 * from the order's creation to the consumer's commit (delivery, waiting in its lane, the batch's
 * transaction) and from that commit to status-service recording the report (relay, the report's
 * delivery, status-service's batch). For the slowest 1 % of orders: which consumer reported last
 * and in which of its two stages most of its time went.
 */
final class StageLatencies {

    /** One consumer's create outcome of one order. */
    private record Report(String consumer, long consumedMs, long reportedMs) {
    }

    /** An order's creation, completion and its consumers' reports. */
    private record OrderStages(long endToEndMs, List<Report> reports) {

        /** The report status-service recorded last: the one the order waited for. */
        Report last() {
            return reports.stream().max(Comparator.comparingLong(r -> r.consumedMs() + r.reportedMs())).orElseThrow();
        }
    }

    private final List<OrderStages> orders;

    private StageLatencies(List<OrderStages> orders) {
        this.orders = orders;
    }

    /** One row of {@code order_consumer_outcome}: when the consumer committed, when status-service recorded it. */
    record ReportRow(String orderId, String consumer, Instant committed, Instant recorded) {
    }

    /** The consumers' create reports of the completed orders among {@code timings}, from status-service's database. */
    static StageLatencies read(Connection statusDatabase, Map<String, LoadRun.Timing> timings) throws SQLException {
        List<ReportRow> rows = new ArrayList<>();
        try (Statement statement = statusDatabase.createStatement();
                ResultSet row = statement.executeQuery("SELECT order_id, consumer, occurred_at, recorded_at FROM "
                        + "order_consumer_outcome WHERE event_type = 'create'")) {
            while (row.next()) {
                rows.add(new ReportRow(row.getString(1), row.getString(2),
                        LoadRun.utc(row.getObject(3, LocalDateTime.class)),
                        LoadRun.utc(row.getObject(4, LocalDateTime.class))));
            }
        }
        return of(timings, rows);
    }

    /** The stages of the completed orders among {@code timings}; rows of other orders are left out. */
    static StageLatencies of(Map<String, LoadRun.Timing> timings, List<ReportRow> rows) {
        Map<String, List<Report>> reports = new HashMap<>();
        for (ReportRow row : rows) {
            LoadRun.Timing timing = timings.get(row.orderId());
            if (timing != null && timing.completedAt() != null) {
                reports.computeIfAbsent(row.orderId(), id -> new ArrayList<>()).add(new Report(row.consumer(),
                        millis(timing.createdAt(), row.committed()), millis(row.committed(), row.recorded())));
            }
        }
        List<OrderStages> orders = new ArrayList<>();
        reports.forEach((id, its) -> orders.add(new OrderStages(
                millis(timings.get(id).createdAt(), timings.get(id).completedAt()), its)));
        return new StageLatencies(orders);
    }

    /** The printed breakdown, a line per consumer, then the slowest 1 %. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("stages per consumer (ms, p50/p90/p99/max): created -> consumer's commit | commit -> status-service recorded it");
        Map<String, List<Report>> byConsumer = new TreeMap<>();
        orders.forEach(order -> order.reports()
                .forEach(r -> byConsumer.computeIfAbsent(r.consumer(), c -> new ArrayList<>()).add(r)));
        byConsumer.forEach((consumer, its) -> lines.add(String.format(Locale.ROOT, "  %-12s %s | %s", consumer,
                summary(its.stream().map(Report::consumedMs).toList()),
                summary(its.stream().map(Report::reportedMs).toList()))));

        List<OrderStages> slowest = orders.stream()
                .sorted(Comparator.comparingLong(OrderStages::endToEndMs).reversed())
                .limit(Math.max(1, orders.size() / 100)).toList();
        if (slowest.isEmpty()) {
            return lines;
        }
        Map<String, Integer> lastConsumer = new TreeMap<>();
        int waitedBeforeCommit = 0;
        for (OrderStages order : slowest) {
            Report last = order.last();
            lastConsumer.merge(last.consumer(), 1, Integer::sum);
            if (last.consumedMs() >= last.reportedMs()) {
                waitedBeforeCommit++;
            }
        }
        lines.add(String.format(Locale.ROOT, "slowest 1 %% (%d orders, end-to-end >= %d ms): reported last by %s; "
                + "that consumer's time mostly before its commit in %d, after it in %d", slowest.size(),
                slowest.get(slowest.size() - 1).endToEndMs(), lastConsumer, waitedBeforeCommit,
                slowest.size() - waitedBeforeCommit));
        return lines;
    }

    private static String summary(List<Long> values) {
        Percentiles stats = new Percentiles(values);
        return String.format(Locale.ROOT, "%d/%d/%d/%d", stats.at(50), stats.at(90), stats.at(99), stats.max());
    }

    private static long millis(Instant from, Instant to) {
        return Duration.between(from, to).toMillis();
    }

}
