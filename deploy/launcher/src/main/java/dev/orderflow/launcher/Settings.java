package dev.orderflow.launcher;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Every knob of the local launcher. {@link #fromSystemProperties(Path)} reads them from
 * {@code -Dorderflow.local.*} system properties (pass them to {@code deploy/run-local.sh} through
 * {@code JAVA_OPTS}); tests build instances directly with the {@code with*} methods.
 */
public record Settings(
        /** Repository root: where the service modules ({@code order-service/} ...) are looked up. */
        Path root,
        /** {@code orderflow.local.run-dir}: data, logs and working folders; {@code --clean} wipes it. Default {@code <root>/.run-local}. */
        Path runDir,
        /** {@code orderflow.local.name-server-port}: RocketMQ name server port, 9876; a free port when taken. */
        int nameServerPort,
        /** {@code orderflow.local.broker-port}: RocketMQ broker port, 10911 (it also uses port-2 and port+1); free ports when taken. */
        int brokerPort,
        /** {@code orderflow.local.mariadb.host}: the MariaDB server used when it answers. Default 127.0.0.1. */
        String mariadbHost,
        /** {@code orderflow.local.mariadb.port}: its port, 3306. */
        int mariadbPort,
        /** {@code orderflow.local.mariadb.user}: user for the services and for creating databases, {@code root}. */
        String mariadbUser,
        /** {@code orderflow.local.mariadb.password}: its password, empty by default. Passed to services by environment, never on a command line. */
        String mariadbPassword,
        /**
         * {@code orderflow.local.mariadb.embedded-port}: port of the embedded MariaDB started when
         * none answers. Default: the same as {@code mariadb.port} (3306), a free port when that is
         * taken; 0 always picks a free port.
         */
        int embeddedMariadbPort,
        /**
         * {@code orderflow.local.service-jvm-options}: JVM options of each service, space separated,
         * after its own {@code -Xmx} ({@link ServiceSpec#jvmOptions(List)}: an {@code -Xmx} here sets every
         * service's heap). Default {@link Settings#DEFAULT_SERVICE_JVM_OPTIONS}.
         */
        List<String> serviceJvmOptions,
        /** {@code orderflow.local.ready-timeout}: how long all services together may take to become ready (ISO-8601), PT3M. */
        Duration readyTimeout,
        /** {@code orderflow.local.stop-timeout}: how long services get to exit after SIGTERM before they are killed, PT20S. */
        Duration stopTimeout) {

    public Settings {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(runDir, "runDir");
        serviceJvmOptions = List.copyOf(serviceJvmOptions);
    }

    /**
     * The services' JVM options unless {@code orderflow.local.service-jvm-options} says otherwise (the
     * benchmark starts them the same way): five services and a broker share a small machine, where
     * C2's compilations cost more CPU than they save. A service's classes take 40-52 MB of metaspace;
     * at the JVM's default first threshold (about 21 MB) loading them costs two full collections at
     * every start, each stopping every thread (start-up included) for 26-42 ms alone and up to 270 ms
     * while the five start together: with a 64 MB threshold there are none. Each service's heap is
     * its {@link ServiceSpec#maxHeap()}, given before these; it starts at 16 MB and is kept 20-40 %
     * free instead of being committed whole (the default first heap here is the maximum), and the
     * C heap is given back to the system every 5 s (JDK 17.0.9 or later): 10-28 MB less RSS per
     * service under load, no throughput change measured, a few more young collections.
     */
    public static final String DEFAULT_SERVICE_JVM_OPTIONS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1"
            + " -XX:MetaspaceSize=64m -Xms16m -XX:MinHeapFreeRatio=20 -XX:MaxHeapFreeRatio=40"
            + " -XX:TrimNativeHeapInterval=5000";

    /** The defaults above, overridden by {@code -Dorderflow.local.*} system properties. */
    public static Settings fromSystemProperties(Path root) {
        Path absoluteRoot = root.toAbsolutePath().normalize();
        int mariadbPort = intProperty("mariadb.port", 3306);
        return new Settings(
                absoluteRoot,
                absoluteRoot.resolve(property("run-dir", ".run-local")),
                intProperty("name-server-port", 9876),
                intProperty("broker-port", 10911),
                property("mariadb.host", "127.0.0.1"),
                mariadbPort,
                property("mariadb.user", "root"),
                property("mariadb.password", ""),
                intProperty("mariadb.embedded-port", mariadbPort),
                List.of(property("service-jvm-options", DEFAULT_SERVICE_JVM_OPTIONS).trim().split("\\s+")),
                Duration.parse(property("ready-timeout", "PT3M")),
                Duration.parse(property("stop-timeout", "PT20S")));
    }

    public Path rocketmqDir() {
        return runDir.resolve("rocketmq");
    }

    public Path mariadbDir() {
        return runDir.resolve("mariadb");
    }

    public Path logDir() {
        return runDir.resolve("logs");
    }

    public Settings withMariadb(String host, int port, int embeddedPort) {
        return new Settings(root, runDir, nameServerPort, brokerPort, host, port, mariadbUser, mariadbPassword,
                embeddedPort, serviceJvmOptions, readyTimeout, stopTimeout);
    }

    public Settings withRocketmqPorts(int nameServer, int broker) {
        return new Settings(root, runDir, nameServer, broker, mariadbHost, mariadbPort, mariadbUser, mariadbPassword,
                embeddedMariadbPort, serviceJvmOptions, readyTimeout, stopTimeout);
    }

    private static String property(String key, String defaultValue) {
        return System.getProperty("orderflow.local." + key, defaultValue);
    }

    private static int intProperty(String key, int defaultValue) {
        return Integer.parseInt(property(key, Integer.toString(defaultValue)));
    }
}
