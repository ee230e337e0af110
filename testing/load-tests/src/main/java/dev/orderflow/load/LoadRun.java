package dev.orderflow.load;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.core.ConditionTimeoutException;

import dev.orderflow.launcher.LocalSuite;
import dev.orderflow.launcher.ServiceProcess;
import dev.orderflow.launcher.ServiceSpec;
import dev.orderflow.suite.OrderStream;
import dev.orderflow.suite.Reconciler;
import dev.orderflow.suite.SuiteUnderTest;
import dev.orderflow.suite.TopicReader;
import dev.orderflow.suite.Verdict;

/**
 * The whole-flow benchmark: starts the suite ({@link SuiteUnderTest} with
 * {@code orderflow_perf_*} databases), sets stock, places orders over the public API in a closed
 * or open loop ({@link LoadOptions}), waits (bounded) until every accepted order is COMPLETED and
 * prints throughput, latencies, each process's RSS and CPU seconds, per-order DB commits and
 * broker writes, the machine's ceilings and the reconciliation count ({@link Reconciler} +
 * {@link Verdict}). Exit code 0 only when every order completed and reconciliation is 0.
 *
 * <pre>
 * java -Xmx256m -cp "testing/load-tests/target/classes:$(cat testing/load-tests/target/classpath.txt)" dev.orderflow.load.LoadRun --orders 5000 --clients 32
 * </pre>
 * System properties: {@code orderflow.load.root} (repository root, default the working directory),
 * {@code orderflow.load.run-dir} (default {@code <root>/load-tests/target/load-run}),
 * {@code orderflow.load.mariadb.host|port} (127.0.0.1, 3306; user root, empty password).
 */
public final class LoadRun {

    /** The suite's databases: orderflow_perf_order, orderflow_perf_inventory, ... */
    public static final String DATABASE_PREFIX = "orderflow_perf_";
    /** Length of one idle window; the last window's counter rates are subtracted from the run's deltas. */
    static final Duration IDLE_WINDOW = Duration.ofSeconds(5);
    /**
     * At most this many idle windows: the warm-up's trailing work (the SMS dispatch, the report relays)
     * can outlast the first one on a slow machine, and its rate is no idle rate (subtracted, it makes
     * the commits per order negative).
     */
    static final int MAX_IDLE_WINDOWS = 6;
    /** After completion: the sms dispatch and report relays finish; bounded. */
    static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);
    /** How long the one-core figure and then the memory figure run, just before the ceilings (the suite idle by then). */
    static final Duration CORE_PROBE = Duration.ofSeconds(2);
    private static final Pattern STARTED_IN = Pattern.compile("started in ([0-9.]+)s");

    private final LoadOptions options;
    private final SuiteUnderTest suite;
    private final String mariadbHost;
    private final int mariadbPort;
    private final Path runDir;
    private final PrintStream out;

    private LoadRun(LoadOptions options, SuiteUnderTest suite, String mariadbHost, int mariadbPort, Path runDir,
            PrintStream out) {
        this.options = options;
        this.suite = suite;
        this.mariadbHost = mariadbHost;
        this.mariadbPort = mariadbPort;
        this.runDir = runDir;
        this.out = out;
    }

    public static void main(String[] args) {
        LoadOptions options = parseOrExit(LoadOptions::parse, args);
        Path root = root();
        Path runDir = Path.of(System.getProperty("orderflow.load.run-dir",
                root.resolve("testing/load-tests/target/load-run").toString())).toAbsolutePath().normalize();
        // This JVM's RocketMQ clients (SuiteCounters' broker admin, MachineCeilings' producer) find the
        // broker jar's logback file on the class path (the launcher's manifest) and would print its set-up.
        LocalSuite.quietRocketMQLogging(runDir.resolve("load-generator-rocketmq"));
        String host = System.getProperty("orderflow.load.mariadb.host", "127.0.0.1");
        int port = Integer.parseInt(System.getProperty("orderflow.load.mariadb.port", "3306"));
        LoadResult result;
        // No database outage is injected here: every service connects to MariaDB directly, as in
        // production (through the fault suite's relay, inventory-service's statements would each take
        // a hop through this JVM).
        try (SuiteUnderTest suite = SuiteUnderTest.start(root, runDir, DATABASE_PREFIX, options.serviceJvmOptions(), host, port,
                false, System.out)) {
            result = new LoadRun(options, suite, host, port, runDir, System.out).execute();
        }
        System.exit(result.passed() ? 0 : 1);
    }

    /** The options, or exit code 2 with the parser's message (the usage) when they do not parse. */
    static LoadOptions parseOrExit(Function<String[], LoadOptions> parser, String[] args) {
        try {
            return parser.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            throw e; // not reached
        }
    }

    /** The repository root: system property {@code orderflow.load.root}, default the working directory. */
    static Path root() {
        return Path.of(System.getProperty("orderflow.load.root", "")).toAbsolutePath().normalize();
    }

    private LoadResult execute() {
        Map<String, Long> pids = processIds();
        Map<String, Double> startupSeconds = startupSeconds();
        Map<String, ProcessUsage> idle = usage(pids, ProcessUsage::of);
        int planned = options.plannedOrders();
        List<String> skus = options.skuNames();
        try (OrderStream stream = new OrderStream(() -> suite.url("order-service"), skus, options.clients(), planned,
                Duration.ZERO, 0).withTokens(suite.tokens());
                OrderStream atRate = options.warmupOrdersAtRate() == 0 ? null : new OrderStream(
                        () -> suite.url("order-service"), skus, options.clients(), options.warmupOrdersAtRate(), Duration.ZERO, 0)
                        .withTokens(suite.tokens());
                Reconciler reconciler = new Reconciler(suite);
                SuiteCounters counters = new SuiteCounters(mariadbHost, mariadbPort, suite.nameServerAddress(), suite.brokerTools());
                PerSecondSamples perSecond = options.perSecond()
                        ? PerSecondSamples.connect(pids, mariadbHost, mariadbPort) : null) {
            stream.seedStock(suite.url("inventory-service"));
            Set<String> warmupIds = warmUp(skus);
            IdleRates idleRates = measureIdle(counters);
            // After a warm-up at the rate, its orders still in flight count in the deltas: about rate x latency
            // orders' work (~50 of 18,900 at 210/s), against a pause that would let the suite go idle.
            SuiteCounters.Reading before = warmUpAtRate(atRate, warmupIds.size()) ? counters.read() : idleRates.end();

            Map<String, ProcessUsage> usageBefore = usage(pids, ProcessUsage::withWaits);
            Map<String, Long> peakRssKb = new HashMap<>();
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            sampler.scheduleAtFixedRate(() -> usage(pids, ProcessUsage::of)
                    .forEach((name, u) -> peakRssKb.merge(name, u.rssKb(), Math::max)), 0, 1, TimeUnit.SECONDS);
            Map<String, JfrProfile> profiles = new LinkedHashMap<>();
            options.jfrProcesses().forEach(p -> profiles.put(p, JfrProfile.start(pids.get(p), runDir.resolve(p + ".jfr"))));
            Map<String, AsyncProfile> asyncProfiles = new LinkedHashMap<>();
            options.asyncProfileProcesses().forEach(p -> asyncProfiles.put(p,
                    AsyncProfile.start(pids.get(p), runDir, runDir.resolve(p + ".collapsed"))));
            double loadAverage = loadAverage();
            out.printf(Locale.ROOT, "load: %s, %d orders, load average %.2f%n", options.label(), planned, loadAverage);
            Instant firstSubmit = Instant.now();
            long loadStarted = System.nanoTime();
            if (perSecond != null) {
                perSecond.begin();
            }
            StoreReadSamples storeReads = new StoreReadSamples(counters::storeReads);
            sampler.scheduleAtFixedRate(storeReads::sample, 10, 10, TimeUnit.SECONDS);
            if (options.openLoop()) {
                openLoop(stream, planned);
            } else {
                stream.start();
            }
            try {
                await().atMost(options.completionTimeout()).pollInterval(Duration.ofMillis(200))
                        .until(() -> stream.finishedCount() >= planned);
            } catch (ConditionTimeoutException e) {
                // Measured all the same: the orders never sent count as failed.
                out.printf("load: not every order was sent within %s%n", options.completionTimeout());
            }
            stream.stop();
            int accepted = stream.acceptedCount();
            double submitSeconds = (System.nanoTime() - loadStarted) / 1e9;
            String storeReadsLine = storeReads.summary(accepted / submitSeconds);
            out.printf(Locale.ROOT, "load: %d submitted in %.1f s (accepted %d, refused %d, unanswered %d); waiting for"
                    + " COMPLETED%n", planned, submitSeconds, accepted, stream.refused(), stream.unanswered());
            Set<String> acceptedIds = stream.accepted().keySet();
            Set<String> atRateIds = answeredIds(atRate);
            int earlierOrders = warmupIds.size() + atRateIds.size();
            try {
                await().atMost(options.completionTimeout()).pollInterval(Duration.ofMillis(500))
                        .until(() -> completedCount() - earlierOrders >= accepted);
            } catch (ConditionTimeoutException e) {
                out.printf("load: not every order COMPLETED within %s: %d of %d%n", options.completionTimeout(),
                        completedCount() - earlierOrders, accepted);
            }
            Map<String, ProcessUsage> usageAfter = usage(pids, ProcessUsage::withWaits);
            sampler.shutdownNow();
            if (perSecond != null) {
                perSecond.stop();
            }
            Map<String, List<String>> profileLines = new LinkedHashMap<>();
            profiles.forEach((p, profile) -> profileLines.put("JFR profile of " + p, profile.stopAndSummarise(15)));
            asyncProfiles.forEach((p, profile) -> profileLines.put("async-profiler CPU profile of " + p,
                    profile.stopAndSummarise(15)));
            awaitSettled(counters, idleRates.commitsPerSecond());
            SuiteCounters.Reading after = counters.read();
            double runSeconds = (System.nanoTime() - loadStarted) / 1e9;

            Map<String, Timing> timings = timings(acceptedIds);
            List<Long> e2e = timings.values().stream().filter(t -> t.completedAt() != null)
                    .map(t -> Duration.between(t.createdAt(), t.completedAt()).toMillis()).toList();
            Instant lastCompleted = timings.values().stream().map(Timing::completedAt).filter(c -> c != null)
                    .max(Instant::compareTo).orElse(firstSubmit);
            Map<String, Instant> sentAt = stream.acceptedSentAt();
            Percentiles fromSend = new Percentiles(timings.entrySet().stream()
                    .filter(t -> t.getValue().completedAt() != null && sentAt.containsKey(t.getKey()))
                    .map(t -> Duration.between(sentAt.get(t.getKey()), t.getValue().completedAt()).toMillis()).toList());
            int completed = e2e.size();
            double throughput = completed / Math.max(Duration.between(firstSubmit, lastCompleted).toMillis() / 1000.0, 1e-3);

            Set<String> expectedIds = new HashSet<>(acceptedIds);
            expectedIds.addAll(warmupIds);
            expectedIds.addAll(atRateIds);
            Verdict verdict = Verdict.of(new Verdict.Expectations(expectedIds, Set.of(), List.of(), Set.copyOf(skus),
                    OrderStream.INITIAL_STOCK), reconciler.read());
            int reconciliation = verdict.lost() + verdict.duplicated() + verdict.phantom() + verdict.wrongState()
                    + verdict.pending() + verdict.wrongDlq();

            double commitsPerOrder = (after.comCommit() - before.comCommit()
                    - idleRates.commitsPerSecond() * runSeconds) / Math.max(completed, 1);
            double writesPerOrder = (after.messagesStored() - before.messagesStored()
                    - idleRates.messagesStoredPerSecond() * runSeconds) / Math.max(completed, 1);

            double coreSteps = MachineCeilings.oneCoreStepsPerSecond(CORE_PROBE);
            double memoryNanos = MachineCeilings.memoryReadNanos(CORE_PROBE);
            out.printf(Locale.ROOT, "ceilings: %d s each at concurrency %d; one core: %.0f million steps/s of a fixed loop,"
                    + " memory: %.0f ns per dependent read over %d MB (the machine's speed now: compare runs of the same command)%n",
                    options.ceilingDuration().toSeconds(), options.clients(), coreSteps / 1e6, memoryNanos,
                    MachineCeilings.MEMORY_TABLE_MB);
            double dbCeiling = MachineCeilings.mariadbCommitsPerSecond(mariadbHost, mariadbPort, options.clients(),
                    options.ceilingDuration());
            double brokerCeiling = MachineCeilings.brokerSendsPerSecond(suite.nameServerAddress(), suite.brokerTools(), options.clients(),
                    options.ceilingDuration());

            Percentiles e2eStats = new Percentiles(e2e);
            Percentiles postStats = new Percentiles(stream.acceptedPostNanos().stream()
                    .map(n -> TimeUnit.NANOSECONDS.toMillis(n)).toList());
            LoadResult result = new LoadResult(options.label(), options.clients(), options.rate().orElse(0.0), accepted,
                    completed, planned - completed, throughput, e2eStats.at(50), e2eStats.at(90), e2eStats.at(99),
                    e2eStats.max(), postStats.at(50), postStats.at(99), commitsPerOrder, writesPerOrder, dbCeiling,
                    brokerCeiling, loadAverage, reconciliation);
            print(result, verdict, pids.keySet(), startupSeconds, idle, usageBefore, usageAfter, peakRssKb, before, after,
                    completed, storeReadsLine, profileLines);
            // createdAt is taken when the create starts to run in order-service; a create that waited
            // for a thread before that is late only in this figure.
            out.printf(Locale.ROOT, "end-to-end from the client's send (POST sent -> completedAt, same clock): p50 %d ms, "
                    + "p90 %d ms, p99 %d ms, max %d ms%n", fromSend.at(50), fromSend.at(90), fromSend.at(99), fromSend.max());
            printStages(timings);
            if (perSecond != null) {
                perSecond.report(timings.values(), firstSubmit, runDir).forEach(out::println);
            }
            appendCsv(result);
            if (options.startupAlone()) {
                printStartupAlone();
            }
            return result;
        }
    }

    /**
     * The warm-up phase: {@code --warmup} orders in a closed loop, waited for until COMPLETED, so
     * that the measured phase starts on warmed JITs and filled pools.
     *
     * @return the warm-up's accepted order ids (they count in the reconciliation, not in the figures)
     */
    private Set<String> warmUp(List<String> skus) {
        if (options.warmupOrders() == 0) {
            return Set.of();
        }
        long started = System.nanoTime();
        try (OrderStream warmup = new OrderStream(() -> suite.url("order-service"), skus, options.clients(),
                options.warmupOrders(), Duration.ZERO, 0).withTokens(suite.tokens())) {
            warmup.start();
            await().atMost(options.completionTimeout()).pollInterval(Duration.ofMillis(200))
                    .until(() -> warmup.finishedCount() >= options.warmupOrders());
            warmup.stop();
            int accepted = warmup.acceptedCount();
            await().atMost(options.completionTimeout()).pollInterval(Duration.ofMillis(500))
                    .until(() -> completedCount() >= accepted);
            out.printf(Locale.ROOT, "load: warm-up of %d orders (%d accepted) COMPLETED in %.1f s%n",
                    options.warmupOrders(), accepted, (System.nanoTime() - started) / 1e9);
            return Set.copyOf(warmup.accepted().keySet());
        }
    }

    /**
     * The open loop's warm-up at the measured rate ({@code --warmup-seconds}), after the closed-loop
     * warm-up and the idle windows. The measured phase follows its last order without waiting for its
     * orders to complete, so that it starts on a suite that has run at the rate: after an idle pause
     * the first 2-13 s are slow, the consumers' C1 compilers busy with per-batch code the closed-loop
     * warm-up's big batches ran too seldom to compile. It prints how many of its orders are not yet
     * COMPLETED when the measured phase starts: normally the rate times the latency; a run that starts
     * seconds behind (a stall in the warm-up) on a machine with no headroom to catch up measures that
     * backlog, not the rate.
     *
     * @param earlierOrders the closed-loop warm-up's orders, all COMPLETED before this one
     * @return whether there was such a warm-up
     */
    private boolean warmUpAtRate(OrderStream atRate, int earlierOrders) {
        if (atRate == null) {
            return false;
        }
        double rate = options.rate().orElseThrow();
        out.printf(Locale.ROOT, "load: warm-up at %.1f/s for %d s (%d orders), the measured phase straight after%n",
                rate, options.warmupDuration().toSeconds(), options.warmupOrdersAtRate());
        openLoop(atRate, options.warmupOrdersAtRate());
        int behind = Math.max(0, earlierOrders + atRate.acceptedCount() - completedCount());
        out.printf(Locale.ROOT, "load: the measured phase starts with %d accepted warm-up orders not yet COMPLETED"
                + " (%.1f s of the rate)%s%n", behind, behind / rate,
                behind > rate ? "; over a second behind: the measured phase's figures include that backlog" : "");
        return true;
    }

    /** The open-loop warm-up's accepted order ids, once every one of its orders was answered (bounded). */
    private Set<String> answeredIds(OrderStream atRate) {
        if (atRate == null) {
            return Set.of();
        }
        await().atMost(options.completionTimeout()).pollInterval(Duration.ofMillis(200))
                .until(() -> atRate.finishedCount() >= options.warmupOrdersAtRate());
        atRate.stop();
        return Set.copyOf(atRate.accepted().keySet());
    }

    /**
     * The broker's store reads (one per consumer pull) sampled every 10 s while orders are submitted:
     * how often the suite pulls, and how many pulls an order costs, at the load's rate.
     */
    static final class StoreReadSamples {

        private final Supplier<SuiteCounters.StoreReads> reader;
        private final List<SuiteCounters.StoreReads> samples = new CopyOnWriteArrayList<>();
        private volatile String failure;

        StoreReadSamples(Supplier<SuiteCounters.StoreReads> reader) {
            this.reader = reader;
        }

        void sample() {
            try {
                samples.add(reader.get());
            } catch (RuntimeException e) {
                // A scheduled task that throws is cancelled without a trace: keep the reason for the report.
                failure = e.getMessage();
            }
        }

        /** The mean of the samples taken so far, per second and per order at {@code ordersPerSecond}. */
        String summary(double ordersPerSecond) {
            List<SuiteCounters.StoreReads> taken = List.copyOf(samples);
            if (taken.isEmpty()) {
                return "broker store reads (pulls): not sampled" + (failure != null ? " (" + failure + ")"
                        : " (the orders were submitted in less than 10 s)");
            }
            double found = taken.stream().mapToDouble(SuiteCounters.StoreReads::found).average().orElse(0);
            double missed = taken.stream().mapToDouble(SuiteCounters.StoreReads::missed).average().orElse(0);
            return String.format(Locale.ROOT, "broker store reads (pulls) while submitting, mean of %d 10 s windows: "
                    + "%.0f/s found messages + %.0f/s found none = %.2f per order at %.1f orders/s", taken.size(), found,
                    missed, (found + missed) / Math.max(ordersPerSecond, 1e-9), ordersPerSecond)
                    + (failure != null ? " (a sample failed: " + failure + ")" : "");
        }
    }

    /** A create's server-side timestamps from status-service. */
    record Timing(Instant createdAt, Instant completedAt) {
    }

    /** The open loop: one order every 1/rate s on a pool of {@code clients} threads (the in-flight bound). */
    private void openLoop(OrderStream stream, int planned) {
        ExecutorService clients = Executors.newFixedThreadPool(options.clients());
        long period = (long) (1e9 / options.rate().orElseThrow());
        long start = System.nanoTime();
        for (int i = 0; i < planned; i++) {
            long due = start + i * period;
            // Pacing to the schedule (a rate, not a wait for a condition).
            LockSupport.parkNanos(due - System.nanoTime());
            clients.submit(() -> stream.placeRandomOrder(ThreadLocalRandom.current(), "LC-open"));
        }
        clients.shutdown();
    }

    private int completedCount() {
        try (Connection connection = suite.connect("status-service"); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT COUNT(*) FROM order_message_consume_status WHERE state = 'COMPLETED'")) {
            rows.next();
            return rows.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count COMPLETED orders in status-service's database", e);
        }
    }

    private Map<String, Timing> timings(Set<String> acceptedIds) {
        Map<String, Timing> timings = new HashMap<>();
        try (Connection connection = suite.connect("status-service"); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT order_id, created_at, completed_at FROM "
                        + "order_message_consume_status WHERE state = 'COMPLETED'")) {
            while (rows.next()) {
                if (acceptedIds.contains(rows.getString(1))) {
                    timings.put(rows.getString(1), new Timing(utc(rows.getObject(2, LocalDateTime.class)),
                            utc(rows.getObject(3, LocalDateTime.class))));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the order timings from status-service's database", e);
        }
        return timings;
    }

    /** Where the end-to-end time went, per consumer and stage (see {@link StageLatencies}). */
    private void printStages(Map<String, Timing> timings) {
        try (Connection connection = suite.connect("status-service");
                TopicReader reports = new TopicReader(suite.nameServerAddress(), "load_run_report_reader", suite.brokerTools())) {
            StageLatencies.read(connection, timings, reports).lines().forEach(out::println);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the consumers' reports from status-service's database", e);
        }
    }

    /** status-service stores instants as UTC wall-clock time. */
    static Instant utc(LocalDateTime time) {
        return time == null ? null : time.toInstant(ZoneOffset.UTC);
    }

    /** The suite's background counter rates, and the reading at the end of the window they come from. */
    record IdleRates(double commitsPerSecond, double messagesStoredPerSecond, SuiteCounters.Reading end) {
    }

    /**
     * The suite's background rates after the warm-up: {@link #IDLE_WINDOW}s one after the other until a
     * window's commit rate is no more than a quarter (plus one commit/s) below the one before, at most
     * {@link #MAX_IDLE_WINDOWS}; the last window counts.
     */
    private IdleRates measureIdle(SuiteCounters counters) {
        SuiteCounters.Reading start = counters.read();
        long started = System.nanoTime();
        IdleRates previous = null;
        for (int window = 1; ; window++) {
            pause(IDLE_WINDOW); // a measurement window, not a wait for a condition
            SuiteCounters.Reading end = counters.read();
            long ended = System.nanoTime();
            double seconds = (ended - started) / 1e9;
            IdleRates rates = new IdleRates((end.comCommit() - start.comCommit()) / seconds,
                    (end.messagesStored() - start.messagesStored()) / seconds, end);
            boolean settled = previous != null && rates.commitsPerSecond() >= previous.commitsPerSecond() * 0.75 - 1;
            if (settled || window == MAX_IDLE_WINDOWS) {
                out.printf(Locale.ROOT, "load: idle rates after %d window(s) of %d s: %.1f commits/s, %.1f messages"
                        + " stored/s%n", window, IDLE_WINDOW.toSeconds(), rates.commitsPerSecond(),
                        rates.messagesStoredPerSecond());
                return rates;
            }
            previous = rates;
            start = end;
            started = ended;
        }
    }

    /**
     * Waits until the services' commits are back to the idle rate (the SMS dispatch and the report
     * relays trail the last completion), so the per-order deltas hold all of an order's work.
     */
    private void awaitSettled(SuiteCounters counters, double idleCommitsPerSecond) {
        long[] last = { counters.read().comCommit() };
        double allowed = idleCommitsPerSecond * 2 * 1.5 + 5;
        try {
            await().atMost(SETTLE_TIMEOUT).pollDelay(Duration.ofSeconds(2)).pollInterval(Duration.ofSeconds(2)).until(() -> {
                long now = counters.read().comCommit();
                long delta = now - last[0];
                last[0] = now;
                return delta <= allowed;
            });
        } catch (ConditionTimeoutException e) {
            out.println("load: commits did not settle to the idle rate within " + SETTLE_TIMEOUT
                    + " (other databases' work on the shared MariaDB?): per-order figures include it");
        }
    }

    private Map<String, Long> processIds() {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (ServiceSpec spec : ServiceSpec.SUITE) {
            pids.put(spec.name(), suite.live(spec.name()).handle().pid());
        }
        pids.put(SuiteUnderTest.BROKER, suite.broker().handle().pid());
        // The database shares the cores: its CPU is part of what an order costs on this machine.
        localDatabaseProcess().ifPresent(pid -> pids.put("mariadb", pid));
        // So does this JVM, the load generator: the cores its clients take are not the suite's.
        pids.put("load generator", ProcessHandle.current().pid());
        return pids;
    }

    /** The MariaDB server's pid when it runs on this machine (a loopback host and a mariadbd/mysqld process). */
    private Optional<Long> localDatabaseProcess() {
        if (!mariadbHost.equals("127.0.0.1") && !mariadbHost.equals("localhost")) {
            return Optional.empty();
        }
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.endsWith("/mariadbd") || c.endsWith("/mysqld")).orElse(false))
                .map(ProcessHandle::pid)
                .findFirst();
    }

    /**
     * {@code --startup-alone}: each service in turn is killed and started again while the rest of
     * the suite idles, so its start-up is measured alone (not with five other JVMs starting on the
     * same cores): Quarkus's "started in", the wall time from process start to ready, and the RSS
     * once ready.
     */
    private void printStartupAlone() {
        out.println("start-up alone (each service restarted while the rest of the suite idles):");
        out.println("service              started in(s)  to ready(s)  RSS at ready(MB)");
        for (ServiceSpec spec : ServiceSpec.SUITE) {
            suite.kill9(spec.name());
            long started = System.nanoTime();
            ServiceProcess instance = suite.restart(spec.name(), Map.of());
            double toReady = (System.nanoTime() - started) / 1e9;
            double startedIn = startedIn(instance);
            out.printf(Locale.ROOT, "%-20s %13.2f %12.2f %17.0f%n", spec.name(), startedIn, toReady,
                    ProcessUsage.of(instance.handle().pid()).rssMb());
        }
    }

    private static double startedIn(ServiceProcess instance) {
        try {
            Matcher matcher = STARTED_IN.matcher(Files.readString(instance.log()));
            return matcher.find() ? Double.parseDouble(matcher.group(1)) : Double.NaN;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + instance.log(), e);
        }
    }

    /** Quarkus's "started in N.NNNs" line of each service's log. */
    private Map<String, Double> startupSeconds() {
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (ServiceSpec spec : ServiceSpec.SUITE) {
            seconds.put(spec.name(), startedIn(suite.live(spec.name())));
        }
        return seconds;
    }

    /**
     * Each process's reading by name: {@link ProcessUsage#of} (cheap, every second) or
     * {@link ProcessUsage#withWaits} (every thread's wait for a core, at the run's start and end).
     */
    static Map<String, ProcessUsage> usage(Map<String, Long> pids, LongFunction<ProcessUsage> reading) {
        Map<String, ProcessUsage> usage = new LinkedHashMap<>();
        pids.forEach((name, pid) -> usage.put(name, reading.apply(pid)));
        return usage;
    }

    private void print(LoadResult result, Verdict verdict, Set<String> processes, Map<String, Double> startupSeconds,
            Map<String, ProcessUsage> idle, Map<String, ProcessUsage> before, Map<String, ProcessUsage> after,
            Map<String, Long> peakRssKb, SuiteCounters.Reading countersBefore, SuiteCounters.Reading countersAfter,
            int completed, String storeReadsLine, Map<String, List<String>> profileLines) {
        out.println("==================== load run ====================");
        out.println(MachineDescription.read().line());
        result.report().forEach(out::println);
        out.println("process            ready(s)  idle RSS(MB)  peak RSS(MB)  end RSS(MB)  CPU during run(s)"
                + "  waited for a core(s, per wake-up)");
        for (String name : processes) {
            out.printf(Locale.ROOT, "%-18s %8s  %12.0f  %12.0f  %11.0f  %17.1f  %s%n", name,
                    startupSeconds.containsKey(name) ? String.format(Locale.ROOT, "%.2f", startupSeconds.get(name)) : "-",
                    idle.get(name).rssMb(), peakRssKb.getOrDefault(name, after.get(name).rssKb()) / 1024.0,
                    after.get(name).rssMb(), after.get(name).cpuSeconds() - before.get(name).cpuSeconds(),
                    after.get(name).waitSince(before.get(name)));
        }
        out.printf(Locale.ROOT, "counters over the run (idle rate not subtracted): Com_commit +%d, Handler_commit +%d,"
                + " broker msgPutTotalTodayNow +%d, messages stored (all topics) +%d, for %d completed orders%n", countersAfter.comCommit() - countersBefore.comCommit(),
                countersAfter.handlerCommit() - countersBefore.handlerCommit(),
                countersAfter.brokerPuts() - countersBefore.brokerPuts(),
                countersAfter.messagesStored() - countersBefore.messagesStored(), completed);
        countersAfter.topics().forEach((topic, offset) -> {
            long delta = offset - countersBefore.topics().getOrDefault(topic, 0L);
            if (delta > 0) {
                out.printf(Locale.ROOT, "  topic %-40s +%d (%.2f per order)%n", topic, delta, delta / (double) Math.max(completed, 1));
            }
        });
        out.println(storeReadsLine);
        if (!verdict.problems().isEmpty()) {
            out.println("reconciliation problems (first " + verdict.problems().size() + "):");
            verdict.problems().forEach(p -> out.println("  " + p));
        }
        profileLines.forEach((heading, lines) -> {
            out.println(heading + ":");
            lines.forEach(out::println);
        });
        out.println("LOAD-RESULT " + LoadResult.CSV_HEADER);
        out.println("LOAD-RESULT " + result.toCsv());
    }

    private void appendCsv(LoadResult result) {
        try {
            Path file = options.results().toAbsolutePath();
            Files.createDirectories(file.getParent());
            if (!Files.exists(file)) {
                Files.writeString(file, LoadResult.CSV_HEADER + "\n");
            }
            Files.writeString(file, result.toCsv() + "\n", StandardOpenOption.APPEND);
            out.println("results appended to " + file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + options.results(), e);
        }
    }

    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read /proc/loadavg", e);
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
