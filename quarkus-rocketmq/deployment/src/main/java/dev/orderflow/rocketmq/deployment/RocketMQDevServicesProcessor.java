package dev.orderflow.rocketmq.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
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
 * the connector at it. One broker per JVM, reused across test classes and dev-mode restarts:
 * its shutdown takes 10-20 s, so it lives as long as the JVM.
 */
class RocketMQDevServicesProcessor {

    private static final Logger LOG = Logger.getLogger(RocketMQDevServicesProcessor.class);
    private static final String SERVICE_NAME = "rocketmq";

    private static volatile EmbeddedRocketMQ running;

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
        EmbeddedRocketMQ rocketMQ = startOnce(config);
        return new DevServicesResultBuildItem(SERVICE_NAME, null,
                Map.of(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, rocketMQ.nameServerAddress()));
    }

    private static synchronized EmbeddedRocketMQ startOnce(RocketMQDevServicesConfig config) {
        if (running != null && running.isRunning()) {
            return running;
        }
        Path dataDir = Path.of(config.dataDir().orElse("target/rocketmq-devservices")).toAbsolutePath();
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
        running = rocketMQ;
        return rocketMQ;
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
