package dev.orderflow.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The figures of one load run, as printed, appended to the results CSV and drawn by
 * {@link PerformanceChart}.
 *
 * @param label              the run's name
 * @param clients            closed loop: concurrent clients; open loop: the in-flight bound
 * @param rate               open loop: orders per second asked for; 0 for the closed loop
 * @param accepted           POST /orders answered 201
 * @param completed          accepted orders COMPLETED within the bounded wait
 * @param failed             orders refused, unanswered, or accepted and not COMPLETED in time
 * @param throughput         completed orders per second, first submit to last {@code completedAt}
 * @param e2eP50Ms           server-side end-to-end latency ({@code completedAt − createdAt}) p50, ms
 * @param postP50Ms          client-side POST /orders latency p50, ms
 * @param commitsPerOrder    MariaDB {@code Com_commit} delta per completed order (idle rate subtracted)
 * @param brokerWritesPerOrder messages stored by the broker (every topic's offsets, transaction half
 *                           and op topics included) per completed order (idle rate subtracted)
 * @param dbCommitsPerSecond the MariaDB ceiling: single-row commits/s at the same concurrency
 * @param brokerSendsPerSecond the broker ceiling: sync sends/s at the same concurrency
 * @param loadAverage        the machine's 1-minute load average when the load started
 * @param reconciliation     reconciliation problems (lost + duplicated + phantom + wrong state + pending + wrong DLQ)
 */
public record LoadResult(String label, int clients, double rate, int accepted, int completed, int failed,
        double throughput, long e2eP50Ms, long e2eP90Ms, long e2eP99Ms, long e2eMaxMs, long postP50Ms, long postP99Ms,
        double commitsPerOrder, double brokerWritesPerOrder, double dbCommitsPerSecond, double brokerSendsPerSecond,
        double loadAverage, int reconciliation) {

    static final String CSV_HEADER = "label,clients,rate,accepted,completed,failed,throughput,e2e_p50_ms,e2e_p90_ms,"
            + "e2e_p99_ms,e2e_max_ms,post_p50_ms,post_p99_ms,commits_per_order,broker_writes_per_order,"
            + "db_commits_per_s,broker_sends_per_s,load_average,reconciliation";

    /** Orders per second the MariaDB ceiling allows at {@link #commitsPerOrder} commits each. */
    public double dbBoundOrdersPerSecond() {
        return commitsPerOrder <= 0 ? Double.NaN : dbCommitsPerSecond / commitsPerOrder;
    }

    /** Orders per second the broker ceiling allows at {@link #brokerWritesPerOrder} writes each. */
    public double brokerBoundOrdersPerSecond() {
        return brokerWritesPerOrder <= 0 ? Double.NaN : brokerSendsPerSecond / brokerWritesPerOrder;
    }

    /** The suite's throughput as a fraction of what the MariaDB ceiling allows. */
    public double dbFraction() {
        return throughput / dbBoundOrdersPerSecond();
    }

    /** The suite's throughput as a fraction of what the broker ceiling allows. */
    public double brokerFraction() {
        return throughput / brokerBoundOrdersPerSecond();
    }

    /** Clean: every planned order accepted and COMPLETED, reconciliation 0. */
    public boolean passed() {
        return failed == 0 && reconciliation == 0 && completed == accepted;
    }

    public String toCsv() {
        return String.join(",", List.of(label.replace(",", ";"), Integer.toString(clients), fmt(rate),
                Integer.toString(accepted), Integer.toString(completed), Integer.toString(failed), fmt(throughput),
                Long.toString(e2eP50Ms), Long.toString(e2eP90Ms), Long.toString(e2eP99Ms), Long.toString(e2eMaxMs),
                Long.toString(postP50Ms), Long.toString(postP99Ms), fmt(commitsPerOrder), fmt(brokerWritesPerOrder),
                fmt(dbCommitsPerSecond), fmt(brokerSendsPerSecond), fmt(loadAverage), Integer.toString(reconciliation)));
    }

    public static LoadResult fromCsv(String line) {
        String[] f = line.split(",", -1);
        if (f.length != CSV_HEADER.split(",").length) {
            throw new IllegalArgumentException("Not a load result line: " + line);
        }
        return new LoadResult(f[0], Integer.parseInt(f[1]), Double.parseDouble(f[2]), Integer.parseInt(f[3]),
                Integer.parseInt(f[4]), Integer.parseInt(f[5]), Double.parseDouble(f[6]), Long.parseLong(f[7]),
                Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]), Long.parseLong(f[11]),
                Long.parseLong(f[12]), Double.parseDouble(f[13]), Double.parseDouble(f[14]), Double.parseDouble(f[15]),
                Double.parseDouble(f[16]), Double.parseDouble(f[17]), Integer.parseInt(f[18]));
    }

    /** The lines a run prints: figures, ceilings and fractions. */
    public List<String> report() {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "run: %s (load average %.2f at start)", label, loadAverage));
        lines.add(String.format(Locale.ROOT, "orders: accepted %d, completed %d, failed %d", accepted, completed, failed));
        lines.add(String.format(Locale.ROOT, "throughput: %.1f completed orders/s (first submit to last completedAt)",
                throughput));
        lines.add(String.format(Locale.ROOT, "end-to-end (completedAt - createdAt): p50 %d ms, p90 %d ms, p99 %d ms, max %d ms",
                e2eP50Ms, e2eP90Ms, e2eP99Ms, e2eMaxMs));
        lines.add(String.format(Locale.ROOT, "POST /orders: p50 %d ms, p99 %d ms", postP50Ms, postP99Ms));
        lines.add(String.format(Locale.ROOT, "per order: %.2f DB commits (Com_commit), %.2f broker writes (messages stored)",
                commitsPerOrder, brokerWritesPerOrder));
        lines.add(String.format(Locale.ROOT, "ceilings at concurrency %d: MariaDB %.0f commits/s -> %.0f orders/s; "
                + "broker %.0f sync sends/s -> %.0f orders/s", clients, dbCommitsPerSecond, dbBoundOrdersPerSecond(),
                brokerSendsPerSecond, brokerBoundOrdersPerSecond()));
        lines.add(String.format(Locale.ROOT, "fraction of ceiling: %.1f %% of the DB bound, %.1f %% of the broker bound",
                dbFraction() * 100, brokerFraction() * 100));
        lines.add("reconciliation: " + reconciliation);
        return lines;
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
