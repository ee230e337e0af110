package dev.orderflow.load;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.core.ConditionTimeoutException;

import dev.orderflow.launcher.LocalSuite;
import dev.orderflow.launcher.PortChoices;
import dev.orderflow.launcher.ProcessTree;
import dev.orderflow.launcher.ServiceProcess;
import dev.orderflow.suite.BrokerMain;
import dev.orderflow.suite.OrderStream;
import dev.orderflow.suite.OrderStream.AcceptedOrder;
import dev.orderflow.suite.SuiteUnderTest;

/**
 * The Spring Boot reference, measured beside our suite on the same day: starts the
 * broker ({@link BrokerMain}, with the reference's topic), recreates the reference's database,
 * starts the five reference JVMs ({@code reference/spring-boot}, one jar, one Spring profile each,
 * {@code -Xmx256m} and otherwise default JVM flags), sets stock, runs the same closed loop as
 * {@link LoadRun} ({@link OrderStream}: 1–3 lines over {@code --skus} SKUs), waits (bounded) until
 * every accepted order has {@code order_flags.completed_at}, and prints throughput, latencies,
 * each JVM's RSS, CPU seconds and time to ready, and the reconciliation count
 * ({@link ReferenceReconciliation}). Exit code 0 only when every order completed and
 * reconciliation is 0.
 *
 * <pre>
 * mvn -B -ntp -f reference/spring-boot/pom.xml package -DskipTests
 * java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "testing/load-tests/target/classes:$(cat testing/load-tests/target/classpath.txt)" dev.orderflow.load.ReferenceRun --orders 300 --clients 8
 * </pre>
 * System properties: {@code orderflow.load.root}, {@code orderflow.load.mariadb.host|port} (as
 * LoadRun's), {@code orderflow.reference.run-dir} (default
 * {@code <root>/load-tests/target/reference-run}, wiped at start), {@value #QUEUES_PROPERTY}
 * (queues of the reference's topic, default {@value #DEFAULT_QUEUES}).
 */
public final class ReferenceRun implements AutoCloseable {

    /** The reference's one database (dropped and recreated at start). */
    public static final String DATABASE = "orderflow_ref";
    /** The reference's topic, created by the broker before the reference starts. */
    public static final String TOPIC = "reference-orders";
    /**
     * Queues of {@link #TOPIC}: RocketMQ's default for a topic its producer creates on the first send
     * ({@code DefaultMQProducer.defaultTopicQueueNums}), which is what a straightforward deployment of
     * the reference gets. Ours has {@link LocalSuite#QUEUES_PER_TOPIC} (2, an optimisation of ours).
     */
    public static final int DEFAULT_QUEUES = 4;
    /** System property that sets another queue count for {@link #TOPIC}, e.g. ours to compare. */
    public static final String QUEUES_PROPERTY = "orderflow.reference.queues";
    /** The five JVMs, each the same jar with one Spring profile. */
    public static final List<String> ROLES = List.of("order", "inventory", "sms", "points", "status");
    static final String JAR = "reference/spring-boot/target/orderflow-spring-boot-reference.jar";
    static final String DEFAULT_RESULTS = "testing/load-tests/target/reference-results.csv";
    /** What {@link LoadOptions} options mean the same here; the others (open loop, JIT, JFR, ...) are LoadRun's only. */
    static final Set<String> OPTIONS = Set.of("--orders", "--clients", "--warmup", "--skus", "--completion-timeout",
            "--label", "--results");
    static final String USAGE = "usage: ReferenceRun [--orders N] [--clients C] [--warmup N] [--skus N]"
            + " [--completion-timeout S] [--label TEXT] [--results FILE]";
    static final String CSV_HEADER = "label,clients,accepted,completed,failed,throughput,e2e_p50_ms,e2e_p90_ms,"
            + "e2e_p99_ms,e2e_max_ms,post_p50_ms,post_p99_ms,reconciliation,commits_per_order,broker_writes_per_order,"
            + String.join(",", ROLES.stream().map(r -> r + "_rss_mb," + r + "_cpu_s," + r + "_ready_s").toList())
            + ",broker_rss_mb,broker_cpu_s";
    /** Spring Boot's "Started ReferenceApplication in 7.123 seconds (process running for 8.2)". */
    static final Pattern STARTED_IN = Pattern.compile("Started \\S+ in ([0-9.]+) seconds");

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    private final LoadOptions options;
    private final Path root;
    private final Path runDir;
    private final String mariadbHost;
    private final int mariadbPort;
    private final PrintStream out;
    private final String marker;
    private final int queues;
    private final int nameServerPort;
    private final int brokerPort;
    private final int brokerReadyPort;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, ServiceProcess> services = new LinkedHashMap<>();
    /** Wall time from each JVM's start until its readiness probe answered. */
    private final Map<String, Double> toReadySeconds = new LinkedHashMap<>();
    private final Thread shutdownHook = new Thread(this::close, "reference-run-stop");
    private ServiceProcess broker;
    private boolean closed;

    private ReferenceRun(LoadOptions options, int queues, Path root, Path runDir, String mariadbHost,
            int mariadbPort, PrintStream out) {
        this.options = options;
        this.root = root;
        this.runDir = runDir;
        this.mariadbHost = mariadbHost;
        this.mariadbPort = mariadbPort;
        this.out = out;
        this.marker = "-Dorderflow.reference.run-of=" + runDir;
        this.queues = queues;
        // All chosen before anything starts, so that no two processes are given the same port.
        PortChoices portChoices = new PortChoices();
        this.brokerPort = portChoices.brokerPort();
        this.nameServerPort = portChoices.port();
        this.brokerReadyPort = portChoices.port();
        ROLES.forEach(role -> ports.put(role, portChoices.port()));
    }

    /** The queue count {@link #QUEUES_PROPERTY} gives ({@link #DEFAULT_QUEUES} when unset). */
    static int queues(String property) {
        if (property == null || property.isBlank()) {
            return DEFAULT_QUEUES;
        }
        int queues;
        try {
            queues = Integer.parseInt(property.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(QUEUES_PROPERTY + " must be a whole number of queues, was '" + property + "'");
        }
        if (queues < 1 || queues > 64) {
            throw new IllegalArgumentException(QUEUES_PROPERTY + " must be 1 to 64, was " + queues);
        }
        return queues;
    }

    public static void main(String[] args) {
        LoadOptions options = LoadRun.parseOrExit(ReferenceRun::parse, args);
        Path root = LoadRun.root();
        Path runDir = Path.of(System.getProperty("orderflow.reference.run-dir",
                root.resolve("testing/load-tests/target/reference-run").toString())).toAbsolutePath().normalize();
        LocalSuite.quietRocketMQLogging(runDir.resolve("load-generator-rocketmq"));
        int queues;
        try {
            queues = queues(System.getProperty(QUEUES_PROPERTY));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (!Files.isRegularFile(root.resolve(JAR))) {
            System.err.println(JAR + " is not built: mvn -B -ntp -f reference/spring-boot/pom.xml package -DskipTests");
            System.exit(2);
            return;
        }
        boolean passed;
        try (ReferenceRun run = new ReferenceRun(options, queues, root, runDir,
                System.getProperty("orderflow.load.mariadb.host", "127.0.0.1"),
                Integer.parseInt(System.getProperty("orderflow.load.mariadb.port", "3306")), System.out)) {
            run.start();
            passed = run.measure();
        }
        System.exit(passed ? 0 : 1);
    }

    /**
     * {@link LoadOptions#parse} of the options that mean the same here ({@link #OPTIONS}), with the
     * reference's default label ({@code spring-boot-reference n=N c=C}) and results file.
     */
    static LoadOptions parse(String... args) {
        List<String> given = new ArrayList<>(Arrays.asList(args));
        for (int i = 0; i < args.length; i += 2) {
            if (!OPTIONS.contains(args[i])) {
                throw new IllegalArgumentException("Unknown option " + args[i] + "\n" + USAGE);
            }
        }
        if (!given.contains("--results")) {
            given.addAll(List.of("--results", DEFAULT_RESULTS));
        }
        LoadOptions options = LoadOptions.parse(given.toArray(String[]::new));
        if (!given.contains("--label")) {
            given.addAll(List.of("--label", "spring-boot-reference n=" + options.orders() + " c=" + options.clients()));
            options = LoadOptions.parse(given.toArray(String[]::new));
        }
        return options;
    }

    /** Spring Boot's own start-up time from a log's "Started ... in N seconds" line; NaN when absent. */
    static double startedIn(String log) {
        Matcher matcher = STARTED_IN.matcher(log);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : Double.NaN;
    }

    /** Stops leftovers, recreates the database, starts the broker and the five JVMs and waits until each answers. */
    private void start() {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        List<ProcessHandle> leftovers = ProcessTree.terminateMarked(marker, SuiteUnderTest.BROKER_STOP_GRACE);
        if (!leftovers.isEmpty()) {
            out.println("reference: stopped processes left by a killed earlier run: "
                    + leftovers.stream().map(ProcessHandle::pid).toList());
        }
        recreateDatabase();
        SuiteUnderTest.deleteRunDir(runDir);
        ServiceProcess brokerProcess = BrokerMain.launch(SuiteUnderTest.BROKER, marker,
                List.of("-D" + BrokerMain.QUEUES_PER_TOPIC_PROPERTY + "=" + queues), runDir.resolve("rocketmq"),
                runDir.resolve("logs/broker.log"), nameServerPort, brokerPort, brokerReadyPort, List.of(TOPIC));
        synchronized (this) {
            broker = brokerProcess;
        }
        brokerProcess.awaitReady(System.nanoTime() + Duration.ofMinutes(2).toNanos());
        out.printf("reference: broker ready (name server 127.0.0.1:%d, topic %s with %d queues)%n", nameServerPort,
                TOPIC, queues);

        // One waiting thread per JVM, so that each one's time to ready is its own.
        ExecutorService waiters = Executors.newFixedThreadPool(ROLES.size());
        try {
            Map<String, CompletableFuture<Double>> ready = new LinkedHashMap<>();
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            for (String role : ROLES) {
                long started = System.nanoTime();
                ServiceProcess process = startRole(role);
                ready.put(role, CompletableFuture.supplyAsync(() -> {
                    process.awaitReady(deadline);
                    return (System.nanoTime() - started) / 1e9;
                }, waiters));
            }
            ready.forEach((role, seconds) -> toReadySeconds.put(role, seconds.join()));
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        } finally {
            waiters.shutdownNow();
        }
        out.println("reference: all five JVMs answer " + ports);
    }

    private ServiceProcess startRole(String role) {
        int port = ports.get(role);
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                marker, "-jar", root.resolve(JAR).toString(), "--spring.profiles.active=" + role,
                "--server.port=" + port, "--reference.database=" + DATABASE,
                "--spring.datasource.url=jdbc:mariadb://" + mariadbHost + ":" + mariadbPort + "/" + DATABASE,
                "--rocketmq.name-server=127.0.0.1:" + nameServerPort, "--reference.topic=" + TOPIC);
        // The readiness probe answers 200 after Spring's "Started ... in N seconds" line.
        URI readiness = URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness");
        ServiceProcess process = ServiceProcess.start(role, command, Map.of(), runDir.resolve(role),
                runDir.resolve("logs/" + role + ".log"), readiness);
        synchronized (this) {
            services.put(role, process);
        }
        return process;
    }

    private String url(String role) {
        return "http://127.0.0.1:" + ports.get(role);
    }

    /** Seeds stock, warms up (if asked), runs the measured closed loop, prints and appends the figures. */
    private boolean measure() {
        Map<String, Long> pids = new LinkedHashMap<>();
        services.forEach((role, process) -> pids.put(role, process.handle().pid()));
        pids.put(SuiteUnderTest.BROKER, broker.handle().pid());
        Map<String, Double> startedIn = new LinkedHashMap<>();
        for (String role : ROLES) {
            try {
                startedIn.put(role, startedIn(Files.readString(services.get(role).log())));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + services.get(role).log(), e);
            }
        }
        List<String> skus = options.skuNames();
        int planned = options.plannedOrders();
        Map<String, AcceptedOrder> all = new HashMap<>();
        try (OrderStream stream = new OrderStream(() -> url("order"), skus, options.clients(), planned, Duration.ZERO,
                0); SuiteCounters counters = new SuiteCounters(mariadbHost, mariadbPort, "127.0.0.1:" + nameServerPort, null)) {
            stream.seedStock(url("inventory"));
            if (options.warmupOrders() > 0) {
                long started = System.nanoTime();
                try (OrderStream warmup = new OrderStream(() -> url("order"), skus, options.clients(),
                        options.warmupOrders(), Duration.ZERO, 0)) {
                    closedLoop(warmup, options.warmupOrders(), 0);
                    all.putAll(warmup.accepted());
                }
                out.printf(Locale.ROOT, "reference: warm-up of %d orders (%d accepted) completed in %.1f s%n",
                        options.warmupOrders(), all.size(), (System.nanoTime() - started) / 1e9);
            }
            double loadAverage = LoadRun.loadAverage();
            out.printf(Locale.ROOT, "reference: %s, %d orders, load average %.2f%n", options.label(), planned,
                    loadAverage);
            SuiteCounters.Reading countersBefore = counters.read();
            Map<String, ProcessUsage> before = LoadRun.usage(pids, ProcessUsage::of);
            long firstSubmitMillis = System.currentTimeMillis();
            long loadStarted = System.nanoTime();
            closedLoop(stream, planned, all.size());
            Map<String, ProcessUsage> after = LoadRun.usage(pids, ProcessUsage::of);
            SuiteCounters.Reading countersAfter = counters.read();
            int accepted = stream.acceptedCount();
            out.printf(Locale.ROOT, "reference: %d submitted and waited for in %.1f s%n", planned,
                    (System.nanoTime() - loadStarted) / 1e9);
            all.putAll(stream.accepted());

            List<Long> e2e = new ArrayList<>();
            long lastCompletedMillis = firstSubmitMillis;
            Set<String> measured = stream.accepted().keySet();
            try (Connection connection = connect(); Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT o.id, TIMESTAMPDIFF(MICROSECOND, o.created_at,"
                            + " f.completed_at), UNIX_TIMESTAMP(f.completed_at) FROM orders o JOIN order_flags f"
                            + " ON f.order_id = o.id WHERE f.completed_at IS NOT NULL")) {
                while (rows.next()) {
                    if (measured.contains(rows.getString(1))) {
                        e2e.add(rows.getLong(2) / 1000);
                        lastCompletedMillis = Math.max(lastCompletedMillis,
                                rows.getBigDecimal(3).movePointRight(3).longValue());
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("Cannot read the reference's order timings", e);
            }
            int completed = e2e.size();
            double commitsPerOrder = (countersAfter.comCommit() - countersBefore.comCommit())
                    / (double) Math.max(completed, 1);
            double writesPerOrder = (countersAfter.messagesStored() - countersBefore.messagesStored())
                    / (double) Math.max(completed, 1);
            double throughput = completed / Math.max((lastCompletedMillis - firstSubmitMillis) / 1000.0, 1e-3);
            List<String> problems = reconciliation().problems(all.values(), skus, OrderStream.INITIAL_STOCK);

            Percentiles e2eStats = new Percentiles(e2e);
            Percentiles postStats = new Percentiles(stream.acceptedPostNanos().stream()
                    .map(TimeUnit.NANOSECONDS::toMillis).toList());
            List<String> csv = new ArrayList<>(List.of(options.label().replace(",", ";"),
                    Integer.toString(options.clients()), Integer.toString(accepted), Integer.toString(completed),
                    Integer.toString(planned - completed), fmt(throughput), Long.toString(e2eStats.at(50)),
                    Long.toString(e2eStats.at(90)), Long.toString(e2eStats.at(99)), Long.toString(e2eStats.max()),
                    Long.toString(postStats.at(50)), Long.toString(postStats.at(99)), Integer.toString(problems.size()),
                    fmt(commitsPerOrder), fmt(writesPerOrder)));
            out.println("==================== Spring Boot reference run ====================");
            // The 2x target compares this run with LoadRun's on the same machine: both name it.
            out.println(MachineDescription.read().line());
            out.printf(Locale.ROOT, "run: %s (load average %.2f at start)%n", options.label(), loadAverage);
            out.printf(Locale.ROOT, "orders: accepted %d, completed %d, failed %d%n", accepted, completed,
                    planned - completed);
            out.printf(Locale.ROOT, "throughput: %.1f completed orders/s (first submit to last completed_at)%n",
                    throughput);
            out.printf(Locale.ROOT, "end-to-end (completed_at - created_at): p50 %d ms, p90 %d ms, p99 %d ms, max %d ms%n",
                    e2eStats.at(50), e2eStats.at(90), e2eStats.at(99), e2eStats.max());
            out.printf(Locale.ROOT, "POST /orders: p50 %d ms, p99 %d ms%n", postStats.at(50), postStats.at(99));
            out.printf(Locale.ROOT, "per order: %.2f DB commits (Com_commit), %.2f broker writes (messages stored, all"
                    + " topics); over the measured phase, idle rate not subtracted%n", commitsPerOrder, writesPerOrder);
            out.println("process     started in(s)  to ready(s)  end RSS(MB)  CPU during run(s)");
            for (String name : pids.keySet()) {
                double cpu = after.get(name).cpuSeconds() - before.get(name).cpuSeconds();
                double rss = ProcessUsage.of(pids.get(name)).rssMb();
                boolean role = ROLES.contains(name);
                out.printf(Locale.ROOT, "%-10s %14s %12s %12.0f %18.1f%n", name,
                        role ? fmt(startedIn.get(name)) : "-", role ? fmt(toReadySeconds.get(name)) : "-", rss, cpu);
                csv.addAll(role ? List.of(fmt(rss), fmt(cpu), fmt(toReadySeconds.get(name))) : List.of(fmt(rss), fmt(cpu)));
            }
            out.println("reconciliation: " + problems.size());
            problems.stream().limit(20).forEach(p -> out.println("  " + p));
            String line = String.join(",", csv);
            out.println("REFERENCE-RESULT " + CSV_HEADER);
            out.println("REFERENCE-RESULT " + line);
            appendCsv(line);
            return accepted == planned && completed == accepted && problems.isEmpty();
        }
    }

    /**
     * Runs {@code stream} (its clients' closed loop) until all {@code planned} orders were answered,
     * then waits until every accepted one (plus {@code completedBefore} earlier ones) has
     * {@code completed_at}; both waits bounded by {@code --completion-timeout}.
     */
    private void closedLoop(OrderStream stream, int planned, int completedBefore) {
        stream.start();
        try {
            await().atMost(options.completionTimeout()).pollInterval(Duration.ofMillis(200))
                    .until(() -> stream.finishedCount() >= planned);
        } catch (ConditionTimeoutException e) {
            out.printf("reference: not every order was sent within %s (%d requests in flight)%n",
                    options.completionTimeout(), stream.inFlight());
            dumpThreads();
        }
        stream.stop();
        if (stream.refused() + stream.unanswered() > 0) {
            out.printf("reference: %d orders refused, %d unanswered (see %s)%n", stream.refused(), stream.unanswered(),
                    services.get("order").log());
        }
        IntSupplier completed = this::completedCount;
        int expected = completedBefore + stream.acceptedCount();
        try {
            await().atMost(options.completionTimeout()).pollInterval(Duration.ofMillis(500))
                    .until(() -> completed.getAsInt() >= expected);
        } catch (ConditionTimeoutException e) {
            out.printf("reference: not every order completed within %s: %d of %d%n", options.completionTimeout(),
                    completed.getAsInt(), expected);
        }
    }

    /** Where a stalled load waits: the order JVM's threads (jcmd) and this JVM's, into the logs folder. */
    private void dumpThreads() {
        StringBuilder client = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            client.append(thread.getName()).append(' ').append(thread.getState()).append('\n');
            Arrays.stream(stack).forEach(frame -> client.append("    at ").append(frame).append('\n'));
        });
        try {
            Files.writeString(runDir.resolve("logs/client-threads.txt"), client);
            Files.writeString(runDir.resolve("logs/order-threads.txt"),
                    JfrProfile.jcmd(services.get("order").handle().pid(), "Thread.print"));
            out.println("reference: thread dumps in " + runDir.resolve("logs") + " (client-threads.txt, order-threads.txt)");
        } catch (IOException | RuntimeException e) {
            out.println("reference: thread dumps failed: " + e);
        }
    }

    private int completedCount() {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM order_flags WHERE completed_at IS NOT NULL")) {
            rows.next();
            return rows.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count the reference's completed orders", e);
        }
    }

    private ReferenceReconciliation reconciliation() {
        Map<String, BigDecimal> amounts = new HashMap<>();
        Map<String, Long> stock = new HashMap<>();
        Map<String, Long> points = new HashMap<>();
        Map<String, Integer> sms = new HashMap<>();
        Set<String> completed = new HashSet<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT id, amount FROM orders")) {
                while (rows.next()) {
                    amounts.put(rows.getString(1), rows.getBigDecimal(2));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT sku, available FROM stock")) {
                while (rows.next()) {
                    stock.put(rows.getString(1), rows.getLong(2));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT customer_id, balance FROM points")) {
                while (rows.next()) {
                    points.put(rows.getString(1), rows.getLong(2));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT order_id, COUNT(*) FROM sms_log GROUP BY order_id")) {
                while (rows.next()) {
                    sms.put(rows.getString(1), rows.getInt(2));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT order_id FROM order_flags WHERE completed_at IS NOT NULL")) {
                while (rows.next()) {
                    completed.add(rows.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the reference's tables", e);
        }
        return new ReferenceReconciliation(amounts, stock, points, sms, completed);
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://" + mariadbHost + ":" + mariadbPort + "/" + DATABASE, "root",
                "");
    }

    private void recreateDatabase() {
        try (Connection connection = DriverManager.getConnection(
                "jdbc:mariadb://" + mariadbHost + ":" + mariadbPort + "/", "root", "");
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS `" + DATABASE + "`");
            statement.execute("CREATE DATABASE `" + DATABASE + "` CHARACTER SET utf8mb4");
        } catch (SQLException e) {
            throw new IllegalStateException("The reference needs the MariaDB at " + mariadbHost + ":" + mariadbPort
                    + " (user root, empty password)", e);
        }
    }

    private void appendCsv(String line) {
        try {
            Path file = options.results().toAbsolutePath();
            Files.createDirectories(file.getParent());
            if (!Files.exists(file)) {
                Files.writeString(file, CSV_HEADER + "\n");
            }
            Files.writeString(file, line + "\n", StandardOpenOption.APPEND);
            out.println("results appended to " + file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + options.results(), e);
        }
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    /** Stops the five JVMs (SIGTERM, then SIGKILL), then the broker. Idempotent; also the shutdown hook. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        SuiteUnderTest.stopProcesses("reference", services.values().stream().map(ServiceProcess::handle).toList(), broker,
                () -> { }, shutdownHook, out);
    }
}
