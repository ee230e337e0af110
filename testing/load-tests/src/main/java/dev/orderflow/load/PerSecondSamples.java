package dev.orderflow.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code --per-second}: the measured load second by second, so that the slowest orders can be put
 * next to what the machine did when they were created. One thread samples every second from the first
 * submit until every order is COMPLETED: each process's CPU ({@code /proc/<pid>/stat}), its threads'
 * ({@code /proc/<pid>/task/<tid>/stat}, grouped by name with the numbers stripped, as
 * {@link ProfileSummary#threadGroup} does), the rest of the machine's processes together
 * ({@link #OTHER_PROCESSES}), and MariaDB's status counters {@link #DATABASE_COUNTERS}.
 * After the run the orders are added: how many were created and completed in each second, and the
 * end-to-end (completedAt − createdAt) p50 / p99 of those created in it.
 *
 * <p>Files in the run directory: {@code per-second.csv}, a row a second, and
 * {@code per-second-threads.csv}, one row per second, process and thread group that ran in it. Printed:
 * the median second and the seconds whose orders were slowest, each with the thread groups that ran
 * most above their own median.
 */
final class PerSecondSamples implements AutoCloseable {

    /**
     * MariaDB's cumulative counters sampled each second, with their printed headings; their increments are
     * the CSV's columns: COMMIT statements, row-lock waits and the ms waited, redo-log writes (about one
     * per group commit), InnoDB's fsync calls and the buffer pool's pages written out (a flushing burst).
     */
    static final Map<String, String> DATABASE_COUNTERS = orderedMap("Com_commit", "commits", "Innodb_row_lock_waits",
            "lock waits", "Innodb_row_lock_time", "lock ms", "Innodb_log_writes", "log writes", "Innodb_data_fsyncs",
            "fsyncs", "Innodb_buffer_pool_pages_flushed", "pages out");

    /**
     * The whole machine's CPU time by state, from {@code /proc/stat} (all cores, so two cores give 2000 ms
     * a second): next to the processes' columns, so that a second in which every process ran less shows
     * whether the cores were idle, waiting for the disk, or taken by the hypervisor (steal).
     */
    static final List<String> MACHINE_STATES = List.of("machine busy", "machine idle", "machine iowait", "machine steal");

    /**
     * Every process of the machine outside the suite, the kernel's threads among them, as one more
     * process whose "thread groups" are those processes by command name (numbers stripped): the seconds
     * in which the machine was busy beyond the suite's processes, and what it ran then: 200-500 ms of
     * such CPU in one to three seconds of a run, most of them among its slowest, are common.
     */
    static final String OTHER_PROCESSES = "other processes";

    /** The slowest seconds printed. */
    static final int SLOWEST_PRINTED = 5;

    /**
     * What one second cost: the interval's length as sampled, CPU ms per process (and, under the names of
     * {@link #MACHINE_STATES}, the whole machine's by state) and per process and thread group, and the
     * increments of {@link #DATABASE_COUNTERS} ({@code Innodb_row_lock_time} in ms).
     */
    record Second(int index, long intervalMs, Map<String, Long> processCpuMs,
            Map<String, Map<String, Long>> threadCpuMs, Map<String, Long> database) {
    }

    /** A second of the run with its orders: created in it, completed in it, e2e of those created in it. */
    record Row(int index, int created, int completed, long e2eP50Ms, long e2eP99Ms, Second sample) {
    }

    private static final long MS_PER_TICK = 1000 / ProcessUsage.CLOCK_TICKS_PER_SECOND;

    private final Map<String, Long> pids;
    private final Connection database;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "per-second-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Second> seconds = new CopyOnWriteArrayList<>();
    /** Thread names to their groups: the same few names come back every second. */
    private final Map<String, String> threadGroups = new HashMap<>();
    private long previousNanos;
    private Map<String, Long> previousProcessTicks;
    private long[] previousMachineTicks;
    private Map<String, Map<Long, Long>> previousThreadTicks;
    private Map<String, Long> previousDatabase;
    private volatile String failure;

    /** Connects to MariaDB; {@link #begin()} starts the sampling. */
    static PerSecondSamples connect(Map<String, Long> pids, String mariadbHost, int mariadbPort) {
        try {
            return new PerSecondSamples(pids, DriverManager.getConnection(
                    "jdbc:mariadb://" + mariadbHost + ":" + mariadbPort + "/", "root", ""));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot connect to MariaDB for the per-second samples", e);
        }
    }

    private PerSecondSamples(Map<String, Long> pids, Connection database) {
        this.pids = Collections.unmodifiableMap(new LinkedHashMap<>(pids)); // the columns in the caller's order
        this.database = database;
    }

    /** Starts sampling now: the first reading is the baseline of second 0. */
    void begin() {
        timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
    }

    /** Stops sampling: the last second counted is the one that ended before this call. */
    void stop() {
        timer.shutdownNow();
        try {
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("The per-second sampler did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while stopping the per-second sampler", e);
        }
    }

    private void sample() {
        try {
            long now = System.nanoTime();
            long[] machineTicks = machineTicks(read(Path.of("/proc/stat"))); // read with the clock, as the interval
            Map<String, Long> processTicks = new LinkedHashMap<>();
            Map<String, Map<Long, Long>> threadTicks = new LinkedHashMap<>();
            Map<String, Map<Long, String>> threadNames = new LinkedHashMap<>();
            pids.forEach((process, pid) -> {
                processTicks.put(process, ProcessUsage.cpuTicks(read(Path.of("/proc", pid.toString(), "stat"))));
                Map<Long, Long> ticks = new HashMap<>();
                Map<Long, String> names = new HashMap<>();
                readThreads(pid, ticks, names);
                threadTicks.put(process, ticks);
                threadNames.put(process, names);
            });
            Map<Long, Long> otherTicks = new HashMap<>();
            Map<Long, String> otherNames = new HashMap<>();
            readOtherProcesses(otherTicks, otherNames);
            threadTicks.put(OTHER_PROCESSES, otherTicks);
            threadNames.put(OTHER_PROCESSES, otherNames);
            Map<String, Long> counters = readDatabase();
            if (previousProcessTicks != null) {
                Map<String, Long> processCpu = new LinkedHashMap<>();
                processTicks.forEach((process, ticks) -> processCpu.put(process,
                        (ticks - previousProcessTicks.get(process)) * MS_PER_TICK));
                Map<String, Map<String, Long>> threadCpu = new LinkedHashMap<>();
                threadTicks.forEach((process, ticks) -> {
                    Map<Long, Long> before = previousThreadTicks.get(process);
                    Map<String, Long> groups = new TreeMap<>();
                    // A thread started within the second counts all its time; one that ended in it is lost.
                    ticks.forEach((tid, t) -> {
                        long ms = (t - before.getOrDefault(tid, 0L)) * MS_PER_TICK;
                        if (ms > 0) {
                            groups.merge(threadGroups.computeIfAbsent(threadNames.get(process).get(tid),
                                    ProfileSummary::threadGroup), ms, Long::sum);
                        }
                    });
                    threadCpu.put(process, groups);
                });
                processCpu.put(OTHER_PROCESSES, threadCpu.get(OTHER_PROCESSES).values().stream()
                        .mapToLong(Long::longValue).sum());
                for (int state = 0; state < MACHINE_STATES.size(); state++) {
                    processCpu.put(MACHINE_STATES.get(state),
                            (machineTicks[state] - previousMachineTicks[state]) * MS_PER_TICK);
                }
                Map<String, Long> database = new LinkedHashMap<>();
                counters.forEach((name, value) -> database.put(name, value - previousDatabase.get(name)));
                // At a fixed rate the n-th interval is second n (only this thread appends). Its length is a
                // second give or take the sampler's own scheduling: the CPU figures are those of the interval,
                // so that the machine's states add up to its cores times the interval.
                seconds.add(new Second(seconds.size(), Math.round((now - previousNanos) / 1e6), processCpu, threadCpu,
                        database));
            }
            previousNanos = now;
            previousProcessTicks = processTicks;
            previousMachineTicks = machineTicks;
            previousThreadTicks = threadTicks;
            previousDatabase = counters;
        } catch (RuntimeException e) {
            // A scheduled task that throws is cancelled without a trace: keep the reason for the report.
            failure = e.getMessage();
            throw e;
        }
    }

    /**
     * The ticks of {@link #MACHINE_STATES} from {@code /proc/stat}'s first line ({@code cpu user nice system
     * idle iowait irq softirq steal ...}): busy is user + nice + system + irq + softirq (a guest's time is
     * in user already).
     */
    static long[] machineTicks(String procStat) {
        String first = procStat.substring(0, procStat.indexOf('\n'));
        String[] fields = first.trim().split(" +");
        if (!fields[0].equals("cpu") || fields.length < 9) {
            throw new IllegalArgumentException("Not /proc/stat's cpu line: " + first);
        }
        long[] ticks = new long[fields.length];
        for (int i = 1; i < fields.length; i++) {
            ticks[i] = Long.parseLong(fields[i]);
        }
        return new long[] { ticks[1] + ticks[2] + ticks[3] + ticks[6] + ticks[7], ticks[4], ticks[5], ticks[8] };
    }

    private static void readThreads(long pid, Map<Long, Long> ticks, Map<Long, String> names) {
        readStats(Path.of("/proc", Long.toString(pid), "task"), tid -> true, ticks, names);
    }

    /**
     * Every process outside the suite ({@code /proc/<pid>/stat}): its CPU ticks and command name by pid.
     * As with threads, a process started within the second counts all its time, one that ended in it is
     * lost.
     */
    private void readOtherProcesses(Map<Long, Long> ticks, Map<Long, String> names) {
        readStats(Path.of("/proc"), pid -> !pids.containsValue(pid), ticks, names);
    }

    /**
     * The CPU ticks and command names of the numbered entries of {@code folder} ({@code /proc} or a
     * process's {@code task} folder) that {@code wanted} accepts, by number; an entry that ends between the
     * listing and the read is left out.
     */
    private static void readStats(Path folder, LongPredicate wanted, Map<Long, Long> ticks, Map<Long, String> names) {
        try (Stream<Path> entries = Files.list(folder)) {
            entries.forEach(entry -> {
                String name = entry.getFileName().toString();
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
                    return; // not numbered: /proc/stat, /proc/self, ...
                }
                long id = Long.parseLong(name);
                if (!wanted.test(id)) {
                    return;
                }
                String stat;
                try {
                    stat = Files.readString(entry.resolve("stat"));
                } catch (IOException e) {
                    if (ProcessUsage.exited(e)) {
                        return;
                    }
                    throw new UncheckedIOException(e);
                }
                ticks.put(id, ProcessUsage.cpuTicks(stat));
                names.put(id, ProcessUsage.commandName(stat));
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + folder, e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + " (has the process exited?)", e);
        }
    }

    private Map<String, Long> readDatabase() {
        return SuiteCounters.globalStatus(database, DATABASE_COUNTERS.keySet());
    }

    /**
     * Adds the orders to the seconds sampled until {@link #stop()}, writes the two files into
     * {@code runDir} and returns the lines to print.
     */
    List<String> report(Collection<LoadRun.Timing> timings, Instant firstSubmit, Path runDir) {
        List<Row> rows = rows(List.copyOf(seconds), timings, firstSubmit);
        try {
            Files.write(runDir.resolve("per-second.csv"), csv(rows, columns()));
            Files.write(runDir.resolve("per-second-threads.csv"), threadCsv(rows));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the per-second files into " + runDir, e);
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "per second (%d s sampled from the first submit; %s, %s)%s:", seconds.size(),
                runDir.resolve("per-second.csv"), "per-second-threads.csv",
                failure != null ? " (sampling stopped early: " + failure + ")" : ""));
        lines.addAll(summary(rows, columns(), SLOWEST_PRINTED));
        return lines;
    }

    /** The CPU columns: each process, the other processes, then the machine's states. */
    private List<String> columns() {
        return Stream.of(pids.keySet().stream(), Stream.of(OTHER_PROCESSES), MACHINE_STATES.stream())
                .flatMap(s -> s).toList();
    }

    /** The sampled seconds and the orders by second of creation and of completion, from the first submit. */
    static List<Row> rows(List<Second> seconds, Collection<LoadRun.Timing> timings, Instant firstSubmit) {
        Map<Integer, List<Long>> e2eByCreated = new HashMap<>();
        Map<Integer, Integer> completedBySecond = new HashMap<>();
        for (LoadRun.Timing timing : timings) {
            if (timing.completedAt() == null) {
                continue;
            }
            int created = secondOf(timing.createdAt(), firstSubmit);
            e2eByCreated.computeIfAbsent(created, s -> new ArrayList<>())
                    .add(Duration.between(timing.createdAt(), timing.completedAt()).toMillis());
            completedBySecond.merge(secondOf(timing.completedAt(), firstSubmit), 1, Integer::sum);
        }
        Map<Integer, Second> sampled = seconds.stream().collect(Collectors.toMap(Second::index, s -> s));
        int last = Stream.of(sampled.keySet(), e2eByCreated.keySet(), completedBySecond.keySet()).flatMap(Collection::stream)
                .mapToInt(Integer::intValue).max().orElse(-1);
        List<Row> rows = new ArrayList<>();
        for (int second = 0; second <= last; second++) {
            Percentiles e2e = new Percentiles(e2eByCreated.getOrDefault(second, List.of()));
            rows.add(new Row(second, e2e.count(), completedBySecond.getOrDefault(second, 0), e2e.at(50), e2e.at(99),
                    sampled.get(second)));
        }
        return rows;
    }

    private static int secondOf(Instant time, Instant firstSubmit) {
        return (int) Math.floorDiv(Duration.between(firstSubmit, time).toMillis(), 1000);
    }

    static List<String> csv(List<Row> rows, Collection<String> processes) {
        List<String> lines = new ArrayList<>();
        lines.add("second,created,completed,e2e_p50_ms,e2e_p99_ms,interval_ms,"
                + processes.stream().map(p -> "cpu_ms_" + p.replace(' ', '_')).collect(Collectors.joining(",")) + ","
                + DATABASE_COUNTERS.keySet().stream().map(c -> c.toLowerCase(Locale.ROOT)).collect(Collectors.joining(",")));
        for (Row row : rows) {
            StringBuilder line = new StringBuilder().append(row.index()).append(',').append(row.created()).append(',')
                    .append(row.completed()).append(',').append(row.e2eP50Ms()).append(',').append(row.e2eP99Ms())
                    .append(',').append(row.sample() == null ? "" : row.sample().intervalMs());
            for (String process : processes) {
                line.append(',').append(row.sample() == null ? "" : row.sample().processCpuMs().get(process));
            }
            for (String counter : DATABASE_COUNTERS.keySet()) {
                line.append(',').append(row.sample() == null ? "" : row.sample().database().get(counter));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    static List<String> threadCsv(List<Row> rows) {
        List<String> lines = new ArrayList<>();
        lines.add("second,process,thread,cpu_ms");
        for (Row row : rows) {
            if (row.sample() != null) {
                row.sample().threadCpuMs().forEach((process, groups) -> groups.forEach((group, ms) ->
                        lines.add(row.index() + "," + process + ",\"" + group.replace("\"", "\"\"") + "\"," + ms)));
            }
        }
        return lines;
    }

    /**
     * A table of the median second (medians of each column over the sampled seconds in which orders were
     * created) and the {@code slowest} seconds by their orders' p99, then the thread groups of each slow
     * second that ran most above their median.
     */
    static List<String> summary(List<Row> rows, List<String> processes, int slowest) {
        List<Row> loaded = rows.stream().filter(r -> r.created() > 0 && r.sample() != null).toList();
        List<String> lines = new ArrayList<>();
        if (loaded.isEmpty()) {
            lines.add("  no sampled second with orders created in it");
            return lines;
        }
        StringBuilder header = new StringBuilder("  second  created  completed  p50 ms  p99 ms");
        DATABASE_COUNTERS.values().forEach(label -> header.append(String.format(Locale.ROOT, " %10s", label)));
        header.append("  | CPU ms:");
        processes.forEach(p -> header.append(String.format(Locale.ROOT, " %10s", shortName(p))));
        lines.add(header.toString());
        lines.add(line("median", median(loaded, Row::created), median(loaded, Row::completed),
                median(loaded, Row::e2eP50Ms), median(loaded, Row::e2eP99Ms),
                DATABASE_COUNTERS.keySet().stream().map(c -> median(loaded, r -> r.sample().database().get(c))).toList(),
                processes.stream().map(p -> median(loaded, r -> r.sample().processCpuMs().get(p))).toList()));
        List<Row> slow = loaded.stream().sorted(Comparator.comparingLong(Row::e2eP99Ms).reversed()).limit(slowest)
                .sorted(Comparator.comparingInt(Row::index)).toList();
        for (Row row : slow) {
            lines.add(line(Integer.toString(row.index()), row.created(), row.completed(), row.e2eP50Ms(), row.e2eP99Ms(),
                    DATABASE_COUNTERS.keySet().stream().map(c -> row.sample().database().get(c)).toList(),
                    processes.stream().map(p -> row.sample().processCpuMs().get(p)).toList()));
        }
        lines.add("  thread groups of those seconds most above their median second (CPU ms):");
        for (Row row : slow) {
            Map<String, Long> above = new HashMap<>();
            row.sample().threadCpuMs().forEach((process, groups) -> groups.forEach((group, ms) -> {
                long median = median(loaded, r -> r.sample().threadCpuMs().getOrDefault(process, Map.of())
                        .getOrDefault(group, 0L));
                above.put(process + " \"" + group + "\"", ms - median);
            }));
            lines.add("  " + row.index() + ": " + above.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(3)
                    .map(e -> String.format(Locale.ROOT, "%s %+d", e.getKey(), e.getValue()))
                    .collect(Collectors.joining(", ")));
        }
        return lines;
    }

    private static String line(String second, long created, long completed, long p50, long p99, List<Long> database,
            List<Long> cpu) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %6s  %7d  %9d  %6d  %6d",
                second, created, completed, p50, p99));
        database.forEach(value -> line.append(String.format(Locale.ROOT, " %10d", value)));
        line.append("  |        ");
        cpu.forEach(ms -> line.append(String.format(Locale.ROOT, " %10d", ms)));
        return line.toString();
    }

    private static long median(List<Row> rows, ToLongFunction<Row> column) {
        return new Percentiles(rows.stream().map(r -> column.applyAsLong(r)).toList()).at(50);
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    /** A CPU column's heading: a process's name without "-service", "all ..." for the machine's states. */
    private static String shortName(String process) {
        return process.replace("-service", "").replace("load generator", "load gen").replace(OTHER_PROCESSES, "others")
                .replace("machine ", "all ");
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            database.close();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot close the per-second samples' MariaDB connection", e);
        }
    }
}
