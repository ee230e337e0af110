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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.suite.TopicReader;

/**
 * Where an order's end-to-end time goes, from status-service's rows and the report messages on
 * {@value ConsumerReports#TOPIC}: for each consumer, the time from the order's creation to the
 * consumer's claim of the message (delivery, waiting in its lane, the dedupe lookup: the report's
 * {@code occurred_at}, taken before the batch's statements) and from that claim to status-service
 * recording the report, split where the broker saw the report: the consumer's batch and relay (the
 * batch's statements and commit, the hand-over to the relay, up to the message's born time), the
 * broker storing it, and status-service recording it (delivery, waiting in its report lane, the
 * batch's transaction). Born and store
 * times are clocks of this machine's processes, like the database's. For the slowest 1 % of
 * orders: which consumer reported last and in which stage most of that report's time went.
 */
final class StageLatencies {

    /** The stages of one report, in order; {@code after claim} when the message was not found on the topic. */
    private static final List<String> STAGES = List.of("before claim", "batch and relay", "broker", "status-service",
            "after claim");

    /** One consumer's create outcome of one order; the three split stages are null when its message was not found. */
    private record Report(String consumer, long untilClaimMs, long reportedMs, Long batchAndRelayMs, Long storeMs,
            Long recordMs) {

        /** The stage that took longest. */
        String longestStage() {
            if (batchAndRelayMs == null) {
                return untilClaimMs >= reportedMs ? STAGES.get(0) : STAGES.get(4);
            }
            long[] stages = { untilClaimMs, batchAndRelayMs, storeMs, recordMs };
            int longest = 0;
            for (int i = 1; i < stages.length; i++) {
                if (stages[i] > stages[longest]) {
                    longest = i;
                }
            }
            return STAGES.get(longest);
        }
    }

    /** An order's creation, completion and its consumers' reports. */
    private record OrderStages(long endToEndMs, List<Report> reports) {

        /** The report status-service recorded last: the one the order waited for. */
        Report last() {
            return reports.stream().max(Comparator.comparingLong(r -> r.untilClaimMs() + r.reportedMs())).orElseThrow();
        }
    }

    private final List<OrderStages> orders;

    private StageLatencies(List<OrderStages> orders) {
        this.orders = orders;
    }

    /**
     * One row of {@code order_consumer_outcome}: when the consumer claimed the message, when its report was sent
     * and stored (null when the message was not found), when status-service recorded it.
     */
    record ReportRow(String orderId, String consumer, Instant claimed, Instant sent, Instant stored,
            Instant recorded) {
    }

    /** When a report message was sent (its born time) and stored by the broker. */
    record SentReport(Instant sent, Instant stored) {
    }

    /**
     * The consumers' create reports of the completed orders among {@code timings}, from status-service's
     * database, with their messages' times from {@code reports}.
     */
    static StageLatencies read(Connection statusDatabase, Map<String, LoadRun.Timing> timings, TopicReader reports)
            throws SQLException {
        Map<String, SentReport> sent = sentReports(reports);
        List<ReportRow> rows = new ArrayList<>();
        try (Statement statement = statusDatabase.createStatement();
                ResultSet row = statement.executeQuery("SELECT order_id, consumer, occurred_at, recorded_at FROM "
                        + "order_consumer_outcome WHERE event_type = 'create'")) {
            while (row.next()) {
                SentReport message = sent.get(row.getString(1) + ":create:" + row.getString(2));
                rows.add(new ReportRow(row.getString(1), row.getString(2),
                        LoadRun.utc(row.getObject(3, LocalDateTime.class)),
                        message == null ? null : message.sent(), message == null ? null : message.stored(),
                        LoadRun.utc(row.getObject(4, LocalDateTime.class))));
            }
        }
        return of(timings, rows);
    }

    /**
     * Every report message on the topic by its key ({@code <orderId>:<eventType>:<consumer>}); of a
     * report sent more than once (at-least-once relay), the first stored.
     */
    static Map<String, SentReport> sentReports(TopicReader reader) {
        Map<String, SentReport> sent = new HashMap<>();
        reader.forEach(ConsumerReports.TOPIC, message -> sent.merge(message.getKeys(),
                new SentReport(Instant.ofEpochMilli(message.getBornTimestamp()),
                        Instant.ofEpochMilli(message.getStoreTimestamp())),
                (first, again) -> again.stored().isBefore(first.stored()) ? again : first));
        return sent;
    }

    /** The stages of the completed orders among {@code timings}; rows of other orders are left out. */
    static StageLatencies of(Map<String, LoadRun.Timing> timings, List<ReportRow> rows) {
        Map<String, List<Report>> reports = new HashMap<>();
        for (ReportRow row : rows) {
            LoadRun.Timing timing = timings.get(row.orderId());
            if (timing != null && timing.completedAt() != null) {
                boolean found = row.sent() != null;
                reports.computeIfAbsent(row.orderId(), id -> new ArrayList<>()).add(new Report(row.consumer(),
                        millis(timing.createdAt(), row.claimed()), millis(row.claimed(), row.recorded()),
                        found ? millis(row.claimed(), row.sent()) : null,
                        found ? millis(row.sent(), row.stored()) : null,
                        found ? millis(row.stored(), row.recorded()) : null));
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
        lines.add("stages per consumer (ms, p50/p90/p99/max): created -> consumer's claim | claim -> status-service"
                + " recorded it = batch and relay until sent + broker stored it + status-service recorded it");
        Map<String, List<Report>> byConsumer = new TreeMap<>();
        orders.forEach(order -> order.reports()
                .forEach(r -> byConsumer.computeIfAbsent(r.consumer(), c -> new ArrayList<>()).add(r)));
        byConsumer.forEach((consumer, its) -> {
            List<Report> found = its.stream().filter(r -> r.batchAndRelayMs() != null).toList();
            lines.add(String.format(Locale.ROOT, "  %-12s %s | %s = %s + %s + %s%s", consumer,
                    summary(its.stream().map(Report::untilClaimMs).toList()),
                    summary(its.stream().map(Report::reportedMs).toList()),
                    summary(found.stream().map(Report::batchAndRelayMs).toList()),
                    summary(found.stream().map(Report::storeMs).toList()),
                    summary(found.stream().map(Report::recordMs).toList()),
                    found.size() == its.size() ? "" : " (" + (its.size() - found.size()) + " report(s) not found on "
                            + ConsumerReports.TOPIC + ")"));
        });

        List<OrderStages> slowest = orders.stream()
                .sorted(Comparator.comparingLong(OrderStages::endToEndMs).reversed())
                .limit(Math.max(1, orders.size() / 100)).toList();
        if (slowest.isEmpty()) {
            return lines;
        }
        Map<String, Integer> lastConsumer = new TreeMap<>();
        Map<String, Integer> longestStage = new LinkedHashMap<>();
        for (OrderStages order : slowest) {
            Report last = order.last();
            lastConsumer.merge(last.consumer(), 1, Integer::sum);
            longestStage.merge(last.longestStage(), 1, Integer::sum);
        }
        Map<String, Integer> byStage = new LinkedHashMap<>();
        STAGES.stream().filter(longestStage::containsKey).forEach(stage -> byStage.put(stage, longestStage.get(stage)));
        lines.add(String.format(Locale.ROOT, "slowest 1 %% (%d orders, end-to-end >= %d ms): reported last by %s; "
                + "that report's longest stage: %s", slowest.size(),
                slowest.get(slowest.size() - 1).endToEndMs(), lastConsumer, byStage));
        return lines;
    }

    private static String summary(List<Long> values) {
        if (values.isEmpty()) {
            return "-";
        }
        Percentiles stats = new Percentiles(values);
        return String.format(Locale.ROOT, "%d/%d/%d/%d", stats.at(50), stats.at(90), stats.at(99), stats.max());
    }

    private static long millis(Instant from, Instant to) {
        return Duration.between(from, to).toMillis();
    }

}
