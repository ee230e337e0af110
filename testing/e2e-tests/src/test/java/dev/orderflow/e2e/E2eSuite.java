package dev.orderflow.e2e;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.orderflow.launcher.BrokerAccounts;
import dev.orderflow.launcher.LocalSuite;
import dev.orderflow.launcher.PortChoices;
import dev.orderflow.launcher.ProcessTree;
import dev.orderflow.launcher.ServiceProcess;
import dev.orderflow.launcher.ServiceSpec;
import dev.orderflow.launcher.Settings;
import dev.orderflow.tokens.TokenIssuer;

/**
 * The whole suite for the end-to-end tests, started with the local launcher ({@link LocalSuite}):
 * the real RocketMQ name server and broker in this JVM, the five services as child processes from
 * their built fast-jars on free ports (never 8080-8084, so a developer's running suite does not
 * collide), each with a fresh {@code orderflow_e2e_*} database on the real MariaDB.
 *
 * <p>Stopping ({@link #close()}, also run by a JVM shutdown hook) takes every service's process
 * tree down (SIGTERM, then SIGKILL) and then the broker.
 *
 * <p>System properties: {@code orderflow.e2e.root} (repository root, required),
 * {@code orderflow.e2e.run-dir} (logs, broker store; wiped at start),
 * {@code orderflow.e2e.mariadb.host|port|user|password} (127.0.0.1, 3306, root, empty),
 * {@code orderflow.e2e.service-jvm-options} (default {@link #DEFAULT_SERVICE_JVM_OPTIONS}).
 */
final class E2eSuite implements AutoCloseable {

    /**
     * Small heaps (five JVMs share the machine), no metaspace full collections while starting (as the
     * launcher's services), shorter intervals where the services allow
     * them: the client's first rebalance after a subscription change, the SMS dispatcher's sweep.
     */
    static final String DEFAULT_SERVICE_JVM_OPTIONS = "-Xmx128m -XX:+UseSerialGC -XX:MetaspaceSize=64m"
            + " -Drocketmq.client.rebalance.waitInterval=2000"
            + " -Dsms-service.dispatch.sweep-interval=PT1S";

    /** Set on every service's command line to this run folder: identifies services left by a killed run. */
    static final String RUN_MARKER_PROPERTY = "orderflow.e2e.service-of";

    private final List<ServiceSpec> specs;
    private final LocalSuite suite;
    private final Thread shutdownHook;

    private E2eSuite(Settings settings, List<ServiceSpec> specs, PrintStream out) {
        this.specs = specs;
        this.suite = new LocalSuite(settings, specs, out);
        this.shutdownHook = new Thread(suite::close, "e2e-suite-stop");
    }

    /**
     * Drops and recreates the e2e databases, starts broker and services and waits until every
     * service answers {@code /q/health/ready} on its management port.
     *
     * @throws IllegalStateException when a service jar is missing or a part does not start; what
     *         did start is stopped before this returns
     */
    static E2eSuite start(PrintStream out) {
        Path root = Path.of(required("orderflow.e2e.root")).toAbsolutePath().normalize();
        Path runDir = Path.of(System.getProperty("orderflow.e2e.run-dir", root.resolve("testing/e2e-tests/target/e2e-run").toString()))
                .toAbsolutePath().normalize();
        String host = System.getProperty("orderflow.e2e.mariadb.host", "127.0.0.1");
        int port = Integer.parseInt(System.getProperty("orderflow.e2e.mariadb.port", "3306"));
        String user = System.getProperty("orderflow.e2e.mariadb.user", "root");
        String password = System.getProperty("orderflow.e2e.mariadb.password", "");
        List<String> jvmOptions = new ArrayList<>(List.of(System.getProperty("orderflow.e2e.service-jvm-options",
                DEFAULT_SERVICE_JVM_OPTIONS).trim().split("\\s+")));
        // Marks the services of this run folder, so that the next run finds them if this JVM is killed.
        String marker = "-D" + RUN_MARKER_PROPERTY + "=" + runDir;
        jvmOptions.add(marker);

        List<ServiceSpec> specs = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        PortChoices ports = new PortChoices();
        for (ServiceSpec spec : ServiceSpec.SUITE) {
            if (!Files.isRegularFile(spec.runnerJar(root))) {
                missing.add(root.relativize(spec.runnerJar(root)).toString());
            }
            specs.add(spec.withPorts(ports.port(), ports.port()).withDatabasePrefix("orderflow_e2e_"));
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Services not built: " + missing
                    + ". Build them first: mvn -B install -DskipTests (or run this module with -am).");
        }

        stopLeftovers(marker, out);
        recreateDatabases(host, port, user, password, specs.stream().map(ServiceSpec::database).toList());
        LocalSuite.clean(runDir, out);
        Settings settings = new Settings(root, runDir, 0, 0, host, port, user, password, 0, jvmOptions,
                Duration.ofMinutes(3), Duration.ofSeconds(20));
        E2eSuite e2e = new E2eSuite(settings, List.copyOf(specs), out);
        Runtime.getRuntime().addShutdownHook(e2e.shutdownHook);
        try {
            e2e.suite.start();
        } catch (RuntimeException e) {
            e2e.printLogTails(out, 60);
            e2e.close();
            throw e;
        }
        return e2e;
    }

    /** {@code http://localhost:<port>} of the named service. */
    String url(String service) {
        return spec(service).url();
    }

    /** {@code http://127.0.0.1:<management port>} of the named service: health, metrics, OpenAPI. */
    String managementUrl(String service) {
        return "http://127.0.0.1:" + spec(service).managementPort();
    }

    /** The names of the suite's services. */
    List<String> serviceNames() {
        return specs.stream().map(ServiceSpec::name).toList();
    }

    private ServiceSpec spec(String service) {
        return specs.stream().filter(s -> s.name().equals(service)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No service " + service));
    }

    /** The name server of the suite's broker. */
    String nameServerAddress() {
        return suite.rocketMQ().orElseThrow().nameServerAddress();
    }

    /** The broker's accounts of this run (one per service). */
    BrokerAccounts brokerAccounts() {
        return suite.brokerAccounts();
    }

    /** The issuer of the tokens the suite's services accept (the launcher's key for this run). */
    TokenIssuer tokens() {
        return suite.tokens();
    }

    String orderUrl() {
        return url("order-service");
    }

    String inventoryUrl() {
        return url("inventory-service");
    }

    String smsUrl() {
        return url("sms-service");
    }

    String pointsUrl() {
        return url("points-service");
    }

    String statusUrl() {
        return url("status-service");
    }

    /** Services that exited although nobody stopped them, with their exit codes. */
    Map<String, Integer> exitedServices() {
        return suite.services().stream().filter(s -> !s.process().isAlive())
                .collect(Collectors.toMap(ServiceProcess::name, s -> s.process().exitValue()));
    }

    /** Prints the last {@code lines} lines of every service's log. */
    void printLogTails(PrintStream out, int lines) {
        for (ServiceProcess service : suite.services()) {
            out.printf("%n===== last %d lines of %s (%s, %s) =====%n%s%n", lines, service.name(), service.log(),
                    service.process().isAlive() ? "running" : "exited " + service.process().exitValue(),
                    service.tail(lines));
        }
    }

    /** Stops every service's process tree, then the broker. Idempotent. */
    @Override
    public void close() {
        suite.close();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook is running (or ran) this very method.
        }
    }

    /**
     * Services of an earlier run in the same run folder that are still alive: the run's JVM was
     * killed (SIGKILL) before its shutdown hook could stop them. Only processes whose command line
     * carries this run folder's marker are stopped.
     */
    private static void stopLeftovers(String marker, PrintStream out) {
        List<ProcessHandle> leftovers = ProcessTree.terminateMarked(marker, Duration.ofSeconds(10));
        if (!leftovers.isEmpty()) {
            out.println("e2e: stopped services left by a killed earlier run: "
                    + leftovers.stream().map(ProcessHandle::pid).toList());
        }
    }

    private static void recreateDatabases(String host, int port, String user, String password, List<String> names) {
        String url = "jdbc:mariadb://" + host + ":" + port + "/";
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            for (String name : names) {
                if (!name.matches("orderflow_e2e_[a-z_]+")) {
                    throw new IllegalArgumentException("Refusing to drop a database not named orderflow_e2e_*: " + name);
                }
                statement.execute("DROP DATABASE IF EXISTS `" + name + "`");
                statement.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("The end-to-end tests need the MariaDB at " + host + ":" + port + " (user "
                    + user + "): cannot recreate " + names, e);
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("System property " + property + " is not set (the module's pom sets it)");
        }
        return value;
    }
}
