package dev.orderflow.rocketmq.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;
import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;

/**
 * Starts the real RocketMQ name server and broker in this JVM for dev and test mode and points
 * the connector at it. One broker per JVM, shared by every application the JVM builds: each test
 * profile and each dev-mode restart is augmented in a class loader of its own (a test run augments
 * several at once), so the running broker is found through a JVM-wide system property, not a
 * static field. Its shutdown takes 10-20 s, so it lives as long as the JVM.
 */
class RocketMQDevServicesProcessor {

    private static final Logger LOG = Logger.getLogger(RocketMQDevServicesProcessor.class);
    private static final String SERVICE_NAME = "rocketmq";

    /**
     * System property holding the running broker's settings and name server address
     * ({@code <settings>|<address>}); not a configuration key.
     */
    private static final String RUNNING = "dev.orderflow.rocketmq.devservices.running";

    /**
     * The monitor that makes one augmentation start the broker while the others wait for it: a
     * string literal is interned, the same object in every class loader of this class.
     */
    private static final Object JVM_WIDE_LOCK = "dev.orderflow.rocketmq.devservices.lock";

    @BuildStep(onlyIfNot = IsNormal.class, onlyIf = DevServicesConfig.Enabled.class)
    DevServicesResultBuildItem startEmbeddedBroker(RocketMQDevServicesConfig config) {
        if (!config.enabled()) {
            return null;
        }
        if (ConfigProvider.getConfig().getOptionalValue(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, String.class)
                .isPresent()) {
            LOG.debugf("Not starting the in-process RocketMQ: %s is set", RocketMQConfigKeys.CONNECTOR_NAME_SERVER);
            return null;
        }
        return new DevServicesResultBuildItem(SERVICE_NAME, null,
                Map.of(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, startOnce(config)));
    }

    /** The name server of this JVM's broker with these settings, started when there is none. */
    private static String startOnce(RocketMQDevServicesConfig config) {
        Path dataDir = Path.of(config.dataDir().orElse("target/rocketmq-devservices")).toAbsolutePath();
        String settings = dataDir + ";" + config.messageDelayLevel() + ";" + config.nameServerPort().orElse(0) + ";"
                + config.keepData();
        synchronized (JVM_WIDE_LOCK) {
            String running = System.getProperty(RUNNING);
            if (running != null && running.startsWith(settings + "|")) {
                String nameServer = running.substring(settings.length() + 1);
                if (answers(nameServer)) {
                    return nameServer;
                }
            }
            if (!config.keepData()) {
                deleteRecursively(dataDir);
            }
            EmbeddedRocketMQ.Options options = EmbeddedRocketMQ.Options.forTests(dataDir)
                    .messageDelayLevel(config.messageDelayLevel());
            config.nameServerPort().ifPresent(options::nameServerPort);
            EmbeddedRocketMQ rocketMQ = EmbeddedRocketMQ.start(options);
            LOG.infof("Dev Services for RocketMQ started an in-process name server at %s and broker at %s (data %s)",
                    rocketMQ.nameServerAddress(), rocketMQ.brokerAddress(), dataDir);
            if (config.keepData()) {
                // A kept store must be closed cleanly to be reused: its stop takes 10-15 s.
                Runtime.getRuntime().addShutdownHook(new Thread(rocketMQ::close, "rocketmq-devservices-shutdown"));
            }
            // Otherwise the broker ends with the JVM: its store is wiped at the next start anyway, and a
            // graceful stop would hold every test JVM's exit for those 10-15 s.
            System.setProperty(RUNNING, settings + "|" + rocketMQ.nameServerAddress());
            return rocketMQ.nameServerAddress();
        }
    }

    /** Whether something accepts connections at {@code host:port}. */
    private static boolean answers(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(hostAndPort.substring(0, colon),
                    Integer.parseInt(hostAndPort.substring(colon + 1))), 1_000);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot wipe RocketMQ Dev Services data " + dir, e);
        }
    }
}
