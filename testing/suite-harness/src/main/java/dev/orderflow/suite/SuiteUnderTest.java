package dev.orderflow.suite;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.rocketmq.remoting.RPCHook;

import dev.orderflow.consumer.testing.DatabaseLink;
import dev.orderflow.launcher.BrokerAccounts;
import dev.orderflow.launcher.LocalSuite;
import dev.orderflow.launcher.PortChoices;
import dev.orderflow.launcher.ProcessTree;
import dev.orderflow.launcher.ServiceProcess;
import dev.orderflow.launcher.ServiceSpec;
import dev.orderflow.tokens.TokenEndpoint;
import dev.orderflow.tokens.TokenIssuer;

/**
 * The suite under test, the one harness of the end-to-end, fault and load modules: the broker
 * ({@link BrokerMain}) and every service as child processes on free ports (never the launcher's
 * 8080-8084, so a developer's running suite does not collide), each service with a fresh
 * {@code <prefix>*} database on the real MariaDB. With relays, inventory-service and order-service
 * reach theirs through a {@link DatabaseLink} each (a loopback relay), which the database-outage
 * fault cuts and the half-message fault stalls; without (the end-to-end tests, the benchmark: every
 * statement through a relay costs the service a hop through this JVM) every service connects
 * directly, as in production. Every process it starts is tracked and {@link #close()} (also a JVM
 * shutdown hook) kills them all, whatever state the run is in.
 */
public final class SuiteUnderTest implements AutoCloseable {

    /** Set on every process's command line to the run folder: finds the processes a killed run left. */
    public static final String RUN_MARKER_PROPERTY = "orderflow.suite.service-of";

    /** The fault suite's databases: {@code orderflow_fault_order} etc. */
    public static final String FAULT_DATABASE_PREFIX = "orderflow_fault_";

    /** The service whose database connection goes through the proxy (the database-outage fault). */
    public static final String DB_OUTAGE_SERVICE = "inventory-service";

    /**
     * The service whose database connection is stalled to hold its creates inside the half-message
     * window (half message sent, order row not committed) while it is killed.
     */
    public static final String HALF_MESSAGE_SERVICE = "order-service";

    /** The broker's process name, and the prefix of JVM options meant for it ({@code broker:<option>}). */
    public static final String BROKER = "broker";

    /**
     * Small heaps (up to seven JVMs share two cores), no metaspace full collections while starting
     * (as the launcher's services), the client's faster rebalance, the SMS dispatcher's short sweep,
     * and a check-back that rolls back an orphaned half message after 10 s instead of 60 s (the fault
     * hook's pause is far shorter than that).
     */
    public static final List<String> SERVICE_JVM_OPTIONS = List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-XX:MetaspaceSize=64m",
            "-Drocketmq.client.rebalance.waitInterval=2000", "-Dsms-service.dispatch.sweep-interval=PT1S",
            "-Dorder-service.messaging.rollback-unconfirmed-after=PT10S");

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    /**
     * How long the services get to exit after SIGTERM at the end of a run before SIGKILL: 10 s, or
     * the system property {@code orderflow.suite.stop-grace-seconds} (a JDK 25 AOT training run
     * needs longer: each service writes its AOT configuration at exit, all at once on the same cores).
     */
    private static final Duration SERVICE_STOP_GRACE = Duration.ofSeconds(Long.getLong("orderflow.suite.stop-grace-seconds", 10));
    /** Broker shutdown waits out its service threads' intervals (13-17 s): it gets this long. */
    public static final Duration BROKER_STOP_GRACE = Duration.ofSeconds(45);

    private final Path root;
    private final Path runDir;
    /** Signs the tokens this run's services accept; its key lives in the run folder. */
    private TokenIssuer tokens;
    /** Gives status-service its service tokens (reconciliation calls the other services' ledgers). */
    private TokenEndpoint tokenEndpoint;
    /** The broker's users of this run: one per service, and the super user of the fault injection's own clients. */
    private BrokerAccounts accounts;
    private final String mariadbHost;
    private final int mariadbPort;
    private final PrintStream out;
    private final String marker;
    private final String databasePrefix;
    private final List<String> serviceJvmOptions;
    private final Map<String, ServiceSpec> specs = new LinkedHashMap<>();
    /** Live and dead instances per service name, in start order (index 0 is the first instance). */
    private final Map<String, List<ServiceProcess>> instances = new LinkedHashMap<>();
    private final List<ServiceProcess> started = new ArrayList<>();
    /** Processes a fault killed or stopped: their exit is no failure. */
    private final List<ServiceProcess> stoppedByFault = new ArrayList<>();
    /** Every port of this suite is chosen here, so that no two processes are given the same one. */
    private final PortChoices ports = new PortChoices();
    private final int nameServerPort;
    private final int brokerPort;
    private final int brokerReadyPort;
    /** The relays of {@link #DB_OUTAGE_SERVICE} and {@link #HALF_MESSAGE_SERVICE}; none when the suite was started without them. */
    private final Map<String, DatabaseLink> databaseLinks = new LinkedHashMap<>();
    private final Thread shutdownHook = new Thread(this::close, "suite-stop");
    private ServiceProcess broker;
    private int brokerStarts;
    private boolean closed;

    private SuiteUnderTest(Path root, Path runDir, String databasePrefix, List<String> serviceJvmOptions,
            String mariadbHost, int mariadbPort, boolean relayDatabase, PrintStream out) {
        if (!databasePrefix.matches("orderflow_[a-z0-9]+_")) {
            throw new IllegalArgumentException("A suite's database prefix is orderflow_<word>_, was " + databasePrefix);
        }
        this.databasePrefix = databasePrefix;
        this.serviceJvmOptions = List.copyOf(serviceJvmOptions);
        this.root = root;
        this.runDir = runDir;
        this.mariadbHost = mariadbHost;
        this.mariadbPort = mariadbPort;
        this.out = out;
        this.marker = "-D" + RUN_MARKER_PROPERTY + "=" + runDir;
        for (ServiceSpec spec : ServiceSpec.SUITE) {
            specs.put(spec.name(), spec.withPorts(ports.port(), ports.port()).withDatabasePrefix(databasePrefix));
        }
        this.nameServerPort = ports.port();
        this.brokerPort = ports.brokerPort();
        this.brokerReadyPort = ports.port();
        if (relayDatabase) {
            try {
                for (String service : List.of(DB_OUTAGE_SERVICE, HALF_MESSAGE_SERVICE)) {
                    databaseLinks.put(service, new DatabaseLink(mariadbHost, mariadbPort));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot open the database relay", e);
            }
        }
    }

    /** {@link #start(Path, Path, String, String, int, PrintStream)} with the {@code orderflow_fault_} databases. */
    public static SuiteUnderTest start(Path root, Path runDir, String mariadbHost, int mariadbPort, PrintStream out) {
        return start(root, runDir, FAULT_DATABASE_PREFIX, mariadbHost, mariadbPort, out);
    }

    /**
     * Recreates the {@code <databasePrefix>*} databases, wipes the run folder, starts the broker and
     * the five services and waits until all are ready.
     *
     * @param databasePrefix replaces {@code orderflow_} in each service's database name, e.g.
     *        {@code orderflow_fault_} (the load tests use {@code orderflow_perf_}); only databases
     *        with this prefix are ever dropped
     * @param runDir logs and broker store, wiped at start: its name must start with {@code e2e-run},
     *        {@code fault-run} or {@code load-run}
     * @throws IllegalStateException when a service jar is missing or a part does not start; what
     *         did start is stopped before this returns
     */
    public static SuiteUnderTest start(Path root, Path runDir, String databasePrefix, String mariadbHost, int mariadbPort,
            PrintStream out) {
        return start(root, runDir, databasePrefix, SERVICE_JVM_OPTIONS, mariadbHost, mariadbPort, true, out);
    }

    /**
     * {@link #start(Path, Path, String, String, int, PrintStream)} with the services' JVM options
     * chosen by the caller (e.g. a benchmark's); {@code {app-dir}}
     * in an option stands for the service's {@code quarkus-app} folder, an option written
     * {@code <service>:<option>} (e.g. {@code inventory-service:-Dx=y}) applies to that service only,
     * and one written {@code broker:<option>} to the broker's JVM only (after {@link BrokerMain#JVM_OPTIONS}).
     *
     * @param relayDatabase whether {@link #DB_OUTAGE_SERVICE} and {@link #HALF_MESSAGE_SERVICE} reach
     *        MariaDB through {@link #databaseLink(String) relays} (needed for the database-outage and
     *        half-message faults); without them every service connects directly, as in production
     */
    public static SuiteUnderTest start(Path root, Path runDir, String databasePrefix, List<String> serviceJvmOptions,
            String mariadbHost, int mariadbPort, boolean relayDatabase, PrintStream out) {
        List<String> missing = ServiceSpec.SUITE.stream().filter(s -> !Files.isRegularFile(s.runnerJar(root)))
                .map(s -> root.relativize(s.runnerJar(root)).toString()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Services not built: " + missing
                    + ". Build them first: mvn -B install -DskipTests (or run this module with -am).");
        }
        SuiteUnderTest suite = new SuiteUnderTest(root, runDir, databasePrefix, serviceJvmOptions, mariadbHost, mariadbPort,
                relayDatabase, out);
        Runtime.getRuntime().addShutdownHook(suite.shutdownHook);
        try {
            suite.stopLeftovers();
            suite.recreateDatabases();
            deleteRunDir(runDir);
            suite.tokens = TokenIssuer.inDirectory(runDir.resolve("keys"));
            suite.tokenEndpoint = TokenEndpoint.start(suite.tokens, 0, LocalSuite.STATUS_CLIENT_ID,
                    TokenEndpoint.newSecret());
            suite.accounts = BrokerAccounts.inDirectory(runDir.resolve("keys"));
            suite.startBroker();
            for (String name : suite.specs.keySet()) {
                suite.startInstance(suite.specs.get(name), false);
            }
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            for (ServiceProcess service : suite.startedServices()) {
                service.awaitReady(deadline);
            }
        } catch (RuntimeException e) {
            suite.close();
            throw e;
        }
        return suite;
    }

    public String url(String service) {
        return specs.get(service).url();
    }

    /** {@code http://127.0.0.1:<management port>} of the named service: health, metrics, OpenAPI. */
    public String managementUrl(String service) {
        return "http://127.0.0.1:" + specs.get(service).managementPort();
    }

    /** The names of the suite's services, in start order. */
    public List<String> serviceNames() {
        return List.copyOf(specs.keySet());
    }

    /** The broker's accounts of this run: one per service. */
    public BrokerAccounts brokerAccounts() {
        return accounts;
    }

    public String database(String service) {
        return specs.get(service).database();
    }

    public String nameServerAddress() {
        return "127.0.0.1:" + nameServerPort;
    }

    public Connection connect(String service) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://" + mariadbHost + ":" + mariadbPort + "/" + database(service),
                "root", "");
    }

    /** The newest live instance of {@code service}. */
    public synchronized ServiceProcess live(String service) {
        List<ServiceProcess> all = instances.get(service);
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).process().isAlive()) {
                return all.get(i);
            }
        }
        throw new IllegalStateException("No live instance of " + service);
    }

    /** {@code kill -9} of every live instance of {@code service}; returns once they are gone. */
    public void kill9(String service) {
        List<ServiceProcess> alive;
        synchronized (this) {
            alive = instances.get(service).stream().filter(s -> s.process().isAlive()).toList();
        }
        alive.forEach(this::kill9);
    }

    /** {@code kill -9} of one instance; returns once it is gone. */
    public void kill9(ServiceProcess instance) {
        synchronized (this) {
            stoppedByFault.add(instance);
        }
        instance.process().destroyForcibly(); // Process.destroyForcibly is SIGKILL on Linux
        try {
            instance.process().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while killing " + instance.name(), e);
        }
    }

    /** Starts {@code service} again on its port and waits until it is ready. */
    public ServiceProcess restart(String service, Map<String, String> extraProperties) {
        ServiceProcess instance = startInstance(specs.get(service), false, extraProperties);
        instance.awaitReady(System.nanoTime() + READY_TIMEOUT.toNanos());
        return instance;
    }

    /** Another instance of {@code service} (same group, same database) on a free port, ready. */
    public ServiceProcess startSecondInstance(String service) {
        ServiceProcess instance = startInstance(specs.get(service).withPorts(ports.port(), ports.port()), true);
        instance.awaitReady(System.nanoTime() + READY_TIMEOUT.toNanos());
        return instance;
    }

    /** {@code kill -STOP} / {@code kill -CONT} of the live instances: a consumer that stalls and resumes. */
    public void signal(String service, String signal) {
        List<ServiceProcess> alive;
        synchronized (this) {
            alive = instances.get(service).stream().filter(s -> s.process().isAlive()).toList();
        }
        for (ServiceProcess instance : alive) {
            try {
                Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(instance.handle().pid()))
                        .inheritIO().start();
                if (kill.waitFor() != 0) {
                    throw new IllegalStateException("kill -" + signal + " " + instance.handle().pid() + " failed");
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot run kill", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted", e);
            }
        }
    }

    /** Stops the broker process (SIGTERM: a clean broker shutdown that keeps the store), then starts it again. */
    public void restartBroker() {
        synchronized (this) {
            stoppedByFault.add(broker);
        }
        broker.stop(BROKER_STOP_GRACE);
        startBroker();
    }

    /** The running broker process (name server and broker in one JVM). */
    public synchronized ServiceProcess broker() {
        return broker;
    }

    /** The relay between {@code service} and MariaDB: {@code cut()}/{@code restore()}, {@code stall()}/{@code resume()} it. */
    public DatabaseLink databaseLink(String service) {
        DatabaseLink link = databaseLinks.get(service);
        if (link == null) {
            throw new IllegalStateException(service + " connects to MariaDB directly in this suite (relayed: "
                    + databaseLinks.keySet() + "), so no database fault can be injected there");
        }
        return link;
    }

    /** Every process (service instance or broker) that exited although no fault stopped it. */
    public synchronized List<String> unexpectedExits() {
        return started.stream().filter(s -> !s.process().isAlive() && !stoppedByFault.contains(s))
                .map(s -> s.name() + " (exit " + s.process().exitValue() + ", log " + s.log() + ")").toList();
    }

    public synchronized void printLogTails(int lines) {
        for (ServiceProcess process : started) {
            out.printf("%n===== last %d lines of %s (%s) =====%n%s%n", lines, process.log(),
                    process.process().isAlive() ? "running" : "exited " + process.process().exitValue(),
                    process.tail(lines));
        }
    }

    /** Kills every service instance, then stops the broker, then the database relay. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<ProcessHandle> services = started.stream().filter(s -> s != broker).map(ServiceProcess::handle).toList();
        stopProcesses("suite", services, broker, () -> {
            if (tokenEndpoint != null) {
                tokenEndpoint.close();
            }
            try {
                for (DatabaseLink link : databaseLinks.values()) {
                    link.close();
                }
            } catch (IOException e) {
                out.println("suite: closing the database relay failed: " + e);
            }
        }, shutdownHook, out);
    }

    /**
     * Stops a run's child processes (this suite's, and the Spring Boot reference's in load-tests):
     * SIGTERM to the services ({@link #SERVICE_STOP_GRACE}, then SIGKILL), then to the broker
     * ({@link #BROKER_STOP_GRACE}), then {@code andThen}; removes {@code shutdownHook} unless it is
     * the one running. A run ended by a timeout arrives interrupted: the interrupt is cleared so the
     * waits still run to the end, and handed back afterwards. Failures are printed, not thrown.
     *
     * @param broker null when none was started
     */
    public static void stopProcesses(String who, List<ProcessHandle> services, ServiceProcess broker, Runnable andThen,
            Thread shutdownHook, PrintStream out) {
        boolean interrupted = Thread.interrupted();
        try {
            ProcessTree.terminate(services, SERVICE_STOP_GRACE);
        } catch (RuntimeException e) {
            out.println(who + ": stopping services failed: " + e);
        }
        if (broker != null) {
            try {
                ProcessTree.terminate(List.of(broker.handle()), BROKER_STOP_GRACE);
            } catch (RuntimeException e) {
                out.println(who + ": stopping the broker failed: " + e);
            }
        }
        andThen.run();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: this is the hook running.
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized List<ServiceProcess> startedServices() {
        return started.stream().filter(s -> s != broker).toList();
    }

    private void startBroker() {
        brokerStarts++;
        List<String> brokerOptions = new ArrayList<>(serviceJvmOptions.stream().map(SuiteUnderTest::forBroker)
                .filter(o -> o != null).toList());
        brokerOptions.add("-D" + BrokerMain.ACCOUNTS_PROPERTY + "=" + runDir.resolve("keys").resolve(BrokerAccounts.FILE));
        ServiceProcess process = BrokerMain.launch(BROKER, marker, brokerOptions, runDir.resolve("rocketmq"),
                runDir.resolve("logs/broker-" + brokerStarts + ".log"), nameServerPort, brokerPort, brokerReadyPort,
                List.of());
        synchronized (this) {
            broker = process;
            started.add(process);
        }
        process.awaitReady(System.nanoTime() + Duration.ofMinutes(2).toNanos());
    }

    /** A service's environment: the database password (empty: root on the local server) and its broker secret. */
    private Map<String, String> environment(String service) {
        Map<String, String> environment = new LinkedHashMap<>(accounts.environment(service));
        environment.put("QUARKUS_DATASOURCE_PASSWORD", "");
        if (service.equals("status-service")) {
            environment.put(LocalSuite.CLIENT_SECRET_VARIABLE, tokenEndpoint.clientSecret());
        }
        return environment;
    }

    /** Signs the requests of the run's own broker clients (fault injection, counters, readers). */
    public RPCHook brokerTools() {
        return accounts.toolsHook();
    }

    /** The issuer of the tokens this run's services accept. */
    public TokenIssuer tokens() {
        return tokens;
    }

    private ServiceProcess startInstance(ServiceSpec spec, boolean extra) {
        return startInstance(spec, extra, Map.of());
    }

    private synchronized ServiceProcess startInstance(ServiceSpec spec, boolean extra,
            Map<String, String> extraProperties) {
        if (closed) {
            throw new IllegalStateException("suite stopped");
        }
        String name = spec.name();
        int port = spec.port();
        int databasePort = databaseLinks.containsKey(name) ? databaseLinks.get(name).port() : mariadbPort;
        Map<String, String> properties = new LinkedHashMap<>(LocalSuite.serviceProperties(spec,
                "jdbc:mariadb://127.0.0.1:" + databasePort + "/" + spec.database(), "root", nameServerAddress(),
                List.copyOf(specs.values()), tokens));
        if (name.equals("status-service")) {
            // Its reconciliation calls this run's services.
            properties.putAll(LocalSuite.ledgerClients(List.copyOf(specs.values()), tokenEndpoint));
        }
        properties.putAll(BrokerAccounts.properties(name));
        properties.putAll(extraProperties);
        // {app-dir}: the service's quarkus-app folder, e.g. -XX:SharedArchiveFile={app-dir}/app-cds.jsa;
        // "<service>:<option>" applies to that service only, "broker:<option>" to the broker only.
        String appDir = spec.runnerJar(root).getParent().toString();
        List<String> jvmOptions = spec.jvmOptions(serviceJvmOptions.stream().map(o -> forService(name, o))
                .filter(o -> o != null).map(o -> o.replace("{app-dir}", appDir)).toList());
        jvmOptions.add(marker);
        List<ServiceProcess> all = instances.computeIfAbsent(name, n -> new ArrayList<>());
        String instanceName = name + "-" + (all.size() + 1);
        ServiceProcess process = ServiceProcess.start(instanceName,
                ServiceProcess.javaCommand(jvmOptions, properties, spec.runnerJar(root)),
                environment(name), runDir.resolve("services").resolve(instanceName),
                runDir.resolve("logs").resolve(instanceName + ".log"), spec.readinessUrl());
        all.add(process);
        started.add(process);
        out.printf("suite: started %s on port %d%s%n", instanceName, port, extra ? " (second instance)" : "");
        return process;
    }

    /** {@code option} for {@code service}: itself, its part after "service:" if it names that service, else null. */
    static String forService(String service, String option) {
        String target = target(option);
        if (target == null) {
            return option;
        }
        return target.equals(service) ? option.substring(target.length() + 1) : null;
    }

    /** {@code option} for the broker: its part after "broker:" if it is written so, else null. */
    static String forBroker(String option) {
        return BROKER.equals(target(option)) ? option.substring(BROKER.length() + 1) : null;
    }

    /** The process an option written {@code <service>:<option>} or {@code broker:<option>} names; null: every service. */
    private static String target(String option) {
        int colon = option.indexOf(':');
        if (colon <= 0 || option.startsWith("-")) {
            return null;
        }
        String target = option.substring(0, colon);
        return target.endsWith("-service") || target.equals(BROKER) ? target : null;
    }

    /** Services and brokers of an earlier run in the same run folder whose JVM was killed before its hook ran. */
    private void stopLeftovers() {
        List<ProcessHandle> leftovers = ProcessTree.terminateMarked(marker, BROKER_STOP_GRACE);
        if (!leftovers.isEmpty()) {
            out.println("suite: stopped processes left by a killed earlier run: "
                    + leftovers.stream().map(ProcessHandle::pid).toList());
        }
    }

    private void recreateDatabases() {
        try (Connection connection = DriverManager.getConnection(
                "jdbc:mariadb://" + mariadbHost + ":" + mariadbPort + "/", "root", "");
                Statement statement = connection.createStatement()) {
            for (ServiceSpec spec : specs.values()) {
                if (!spec.database().startsWith(databasePrefix) || !spec.database().matches("[a-z0-9_]+")) {
                    throw new IllegalArgumentException("Refusing to drop a database not named " + databasePrefix + "*: "
                            + spec.database());
                }
                statement.execute("DROP DATABASE IF EXISTS `" + spec.database() + "`");
                statement.execute("CREATE DATABASE `" + spec.database() + "` CHARACTER SET utf8mb4");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("The suite needs the MariaDB at " + mariadbHost + ":" + mariadbPort
                    + " (user root, empty password)", e);
        }
    }

    /**
     * Deletes the run folder (broker store, logs) of an earlier run; only a folder named e2e-run*,
     * fault-run*, load-run* or reference-run* (the Spring Boot reference's benchmark).
     */
    public static void deleteRunDir(Path runDir) {
        if (!Files.exists(runDir)) {
            return;
        }
        String name = runDir.getFileName().toString();
        if (!name.startsWith("e2e-run") && !name.startsWith("fault-run") && !name.startsWith("load-run")
                && !name.startsWith("reference-run")) {
            throw new IllegalArgumentException("Refusing to delete " + runDir
                    + ": not an e2e-run, fault-run, load-run or reference-run folder");
        }
        try (Stream<Path> paths = Files.walk(runDir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + runDir, e);
        }
    }
}
