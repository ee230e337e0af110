package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.orderflow.tokens.TokenEndpoint;
import dev.orderflow.tokens.TokenIssuer;

/**
 * The launcher end to end with real parts: the real RocketMQ in this JVM, MariaDB (the local
 * server when it answers, else embedded), one built "service" (a {@link FakeService} packaged
 * as {@code target/quarkus-app/quarkus-run.jar} of a module folder) and one module not built.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LocalSuiteTest {

    private final Path root = Path.of("target", "suite-test-" + System.nanoTime()).toAbsolutePath();

    @Test
    @Tag("system") // starts the launcher's whole suite (broker, MariaDB, a service process): mvn verify -Psystem
    void startsRocketMQMariaDBAndBuiltServicesAndStopsThemAll() throws Exception {
        int servicePort = Ports.freePort();
        // A heap of its own (the default options set none): the service must get it.
        int managementPort = Ports.freePort();
        ServiceSpec built = new ServiceSpec("fake-service", "fake-service", servicePort, managementPort,
                "launcher_suite_test", "40m");
        ServiceSpec missing = new ServiceSpec("later-service", "later-service", Ports.freePort(), Ports.freePort(),
                "launcher_suite_test",
                ServiceSpec.DEFAULT_MAX_HEAP);
        writeRunnerJar(built.runnerJar(root));
        Settings settings = Settings.fromSystemProperties(root).withRocketmqPorts(0, 0);
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);

        LocalSuite suite = new LocalSuite(settings, List.of(built, missing), out);
        String nameServer;
        ProcessHandle service;
        try {
            suite.start();
            suite.printSummary();
            suite.demo();

            nameServer = suite.rocketMQ().orElseThrow().nameServerAddress();
            assertThat(Ports.answers("127.0.0.1", port(nameServer))).isTrue();
            try (Connection connection = suite.mariaDB().orElseThrow().connect("");
                    Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SHOW DATABASES LIKE 'launcher_suite_test'")) {
                assertThat(rows.next()).as("database created").isTrue();
            }
            for (String topic : LocalSuite.TOPICS) {
                assertThat(suite.rocketMQ().orElseThrow().broker().getTopicConfigManager().selectTopicConfig(topic))
                        .as("topic %s created before the services start", topic).isNotNull();
            }
            service = suite.running("fake-service").orElseThrow().handle();
            String log = Files.readString(settings.logDir().resolve("fake-service.log"));
            assertThat(log)
                    .contains("jdbc-url=" + suite.mariaDB().orElseThrow().jdbcUrl("launcher_suite_test"))
                    .contains("name-server=" + nameServer)
                    .contains("password-in-env=true");
            // Serial GC reports the heap less one survivor space.
            assertThat(Integer.parseInt(log.replaceAll("(?s).*max-heap-mb=(\\d+).*", "$1"))).isBetween(36, 40);
            assertThat(Files.isDirectory(settings.runDir().resolve("services/fake-service"))).as("working folder").isTrue();
        } finally {
            suite.close();
        }

        String printed = output.toString(StandardCharsets.UTF_8);
        assertThat(printed)
                .contains("later-service      not built yet")
                .contains("fake-service       ready (")
                .contains("http://localhost:" + servicePort)
                .contains("demo skipped: order-service and status-service not running")
                .contains("orderflow: stopped");
        assertThat(service.isAlive()).isFalse();
        assertThat(Ports.isFree(managementPort)).isTrue();
        assertThat(Ports.answers("127.0.0.1", port(nameServer))).as("name server stopped").isFalse();
        assertThat(ProcessHandle.current().descendants()).as("no child process left").isEmpty();
        assertThat(settings.rocketmqDir().resolve("store/commitlog")).isDirectory();
    }

    @Test
    void statusServiceCallsTheLedgersOfTheSuitesServicesWithTokensFromTheSuitesEndpoint() {
        List<ServiceSpec> suite = ServiceSpec.SUITE.stream().map(spec -> spec.withPorts(spec.port() + 100,
                spec.managementPort() + 100)).toList();
        try (TokenEndpoint endpoint = TokenEndpoint.start(TokenIssuer.forTests(), 0, LocalSuite.STATUS_CLIENT_ID,
                TokenEndpoint.newSecret())) {
            assertThat(LocalSuite.ledgerClients(suite, endpoint)).containsExactly(
                    Map.entry("quarkus.oidc-client.auth-server-url", endpoint.baseUrl()),
                    Map.entry("quarkus.oidc-client.client-id", "status-service"),
                    Map.entry("quarkus.oidc-client.discovery-enabled", "false"),
                    Map.entry("quarkus.oidc-client.token-path", "/token"),
                    Map.entry("quarkus.rest-client.inventory-ledger.url", "http://localhost:8181"),
                    Map.entry("quarkus.rest-client.order-ledger.url", "http://localhost:8180"),
                    Map.entry("quarkus.rest-client.points-ledger.url", "http://localhost:8183"),
                    Map.entry("quarkus.rest-client.sms-ledger.url", "http://localhost:8182"));
        }
    }

    @Test
    void cleanDeletesOnlyARunFolder() throws IOException {
        Path runDir = root.resolve(".run-local");
        Files.createDirectories(runDir.resolve("rocketmq/store"));
        Files.writeString(runDir.resolve("rocketmq/store/file"), "data");
        PrintStream out = new PrintStream(OutputStream.nullOutputStream());

        assertThatThrownBy(() -> LocalSuite.clean(runDir, out)).hasMessageContaining("Refusing to delete");
        assertThat(runDir.resolve("rocketmq/store/file")).exists();

        Files.writeString(runDir.resolve(LocalSuite.RUN_DIR_MARKER), "");
        LocalSuite.clean(runDir, out);
        assertThat(runDir).doesNotExist();
        assertThat(root).isDirectory();
    }

    @Test
    void quietRocketMQLoggingChoosesTheLaunchersFileUnlessOneIsGiven() {
        String givenFile = System.clearProperty("rmq.logback.configurationFile");
        String givenDir = System.clearProperty("rocketmq.embedded.logDir");
        try {
            LocalSuite.quietRocketMQLogging(root.resolve("logs"));
            assertThat(System.getProperty("rmq.logback.configurationFile")).isEqualTo(LocalSuite.QUIET_ROCKETMQ_LOGBACK);
            assertThat(System.getProperty("rocketmq.embedded.logDir")).isEqualTo(root.resolve("logs").toString());
            assertThat(LocalSuite.class.getClassLoader().getResource(LocalSuite.QUIET_ROCKETMQ_LOGBACK)).isNotNull();

            System.setProperty("rmq.logback.configurationFile", "chosen.logback.xml");
            System.clearProperty("rocketmq.embedded.logDir");
            LocalSuite.quietRocketMQLogging(root.resolve("other-logs"));
            assertThat(System.getProperty("rmq.logback.configurationFile")).isEqualTo("chosen.logback.xml");
            assertThat(System.getProperty("rocketmq.embedded.logDir")).isNull();
        } finally {
            restoreProperty("rmq.logback.configurationFile", givenFile);
            restoreProperty("rocketmq.embedded.logDir", givenDir);
        }
    }

    private static void restoreProperty(String name, String value) {
        if (value == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, value);
        }
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    /** A runnable jar whose Main-Class is {@link FakeService}, reading classes from this test's class path. */
    private static void writeRunnerJar(Path jar) throws IOException {
        Files.createDirectories(jar.getParent());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeService.class.getName());
        String classPath = Stream.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .map(entry -> Path.of(entry).toUri().toString())
                .collect(Collectors.joining(" "));
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.flush();
        }
    }
}
