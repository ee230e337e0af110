package dev.orderflow.suite;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpServer;

import dev.orderflow.launcher.BrokerAccounts;
import dev.orderflow.launcher.LocalSuite;
import dev.orderflow.launcher.ServiceProcess;
import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;

/**
 * The real RocketMQ name server and broker in a process of their own, so that the fault suite
 * can stop and start them like a broker host: fixed ports and a fixed store folder, so a restart
 * finds every message it had. {@link EmbeddedRocketMQ.Options#forTests} timings (check-back every
 * 3 s, retry delays of seconds). SIGTERM shuts the broker down cleanly (its store flushed).
 *
 * <pre>java -cp ... dev.orderflow.suite.BrokerMain &lt;dataDir&gt; &lt;nameServerPort&gt; &lt;brokerPort&gt; &lt;readyPort&gt; [&lt;topic,...&gt;]</pre>
 * {@code http://127.0.0.1:<readyPort>/ready} answers 200 once the broker is registered and the
 * suite's topics (and the extra topics of the optional fifth argument, e.g. the Spring Boot
 * reference's) exist. {@link #launch} starts it as a child process of the caller.
 */
public final class BrokerMain {

    /**
     * The broker JVM's own options, before the caller's: a 256 MB heap, the serial collector, and C1
     * only. With full tiered compilation the broker's C2 compiler thread uses 0.6 of a core in the
     * first 10 s after a 2,000-order warm-up and is still compiling a minute later, a third of the
     * broker's CPU over a 120 s run at 120 orders/s; C1 only halves the broker's CPU over a
     * 5,000-order closed loop and cuts the open loop's p99 from 8.6-9.4 s to 2.4-3.3 s on the same two
     * cores. The services run C1 only for the same reason.
     */
    public static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /**
     * System property of the broker's JVM: read and write queues of each of the suite's topics
     * (default {@link LocalSuite#QUEUES_PER_TOPIC}). A benchmark's {@code --jvm-options
     * "broker:-Dorderflow.broker.queues-per-topic=4"} compares queue counts: fewer queues mean fewer
     * pulls per message at the same pull interval; the fault suite's two-instance run needs at
     * least two.
     */
    public static final String QUEUES_PER_TOPIC_PROPERTY = "orderflow.broker.queues-per-topic";

    /**
     * System property of the broker's JVM: the file of a suite's {@link BrokerAccounts}. When set,
     * the broker admits only those users, each with its grants; unset (the Spring Boot reference's
     * broker), anyone.
     */
    public static final String ACCOUNTS_PROPERTY = "orderflow.broker.accounts";

    private BrokerMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 4 && args.length != 5) {
            System.err.println("usage: BrokerMain <dataDir> <nameServerPort> <brokerPort> <readyPort> [<topic,...>]");
            System.exit(2);
        }
        EmbeddedRocketMQ.Options options = EmbeddedRocketMQ.Options.forTests(Path.of(args[0]))
                .nameServerPort(Integer.parseInt(args[1]))
                .brokerPort(Integer.parseInt(args[2]));
        String accounts = System.getProperty(ACCOUNTS_PROPERTY);
        if (accounts != null) {
            options = options.accessControl(BrokerAccounts.load(Path.of(accounts)).users());
        }
        EmbeddedRocketMQ rocketMQ = EmbeddedRocketMQ.start(options);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            rocketMQ.close();
            stopped.countDown();
        }, "broker-stop"));
        List<String> topics = new ArrayList<>(LocalSuite.TOPICS);
        if (args.length == 5) {
            Arrays.stream(args[4].split(",")).filter(t -> !t.isBlank()).forEach(topics::add);
        }
        rocketMQ.createTopics(topics, Integer.getInteger(QUEUES_PER_TOPIC_PROPERTY, LocalSuite.QUEUES_PER_TOPIC));

        HttpServer ready = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[3])), 0);
        ready.createContext("/ready", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        ready.start();
        System.out.println("broker ready: name server " + rocketMQ.nameServerAddress() + ", broker "
                + rocketMQ.brokerAddress());
        stopped.await();
    }

    /**
     * Starts this class in a child JVM (this JVM's class path, {@link #JVM_OPTIONS} then
     * {@code jvmOptions}), its store in {@code dataDir} (also its working folder), its output in
     * {@code log}; ready once {@code http://127.0.0.1:<readyPort>/ready} answers (the caller awaits it).
     *
     * @param marker a {@code -D} option that marks the process as the caller's (leftover detection)
     * @param jvmOptions more JVM options; a later option wins, e.g. {@code -XX:TieredStopAtLevel=4}
     *        brings C2 back
     * @param extraTopics topics created besides the suite's, with as many queues
     */
    public static ServiceProcess launch(String name, String marker, List<String> jvmOptions, Path dataDir, Path log,
            int nameServerPort, int brokerPort, int readyPort, List<String> extraTopics) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.addAll(jvmOptions);
        command.addAll(List.of(marker,
                "-Drmq.logback.configurationFile=" + LocalSuite.QUIET_ROCKETMQ_LOGBACK,
                "-Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider",
                "-cp", absoluteClassPath(), BrokerMain.class.getName(),
                dataDir.toString(), Integer.toString(nameServerPort), Integer.toString(brokerPort),
                Integer.toString(readyPort)));
        if (!extraTopics.isEmpty()) {
            command.add(String.join(",", extraTopics));
        }
        return ServiceProcess.start(name, command, Map.of(), dataDir, log,
                URI.create("http://127.0.0.1:" + readyPort + "/ready"));
    }

    /** This JVM's class path with absolute entries: the broker runs in its store folder, not here. */
    private static String absoluteClassPath() {
        return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }
}
