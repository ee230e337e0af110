package dev.orderflow.status.lag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.util.Map;

import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A real RocketMQ of its own (name server + broker in this JVM, free ports) for the application
 * of {@link LagStaleTest}: it parks a half message after a single unanswered check-back
 * ({@code transactionCheckMax} 1), and the test may stop its name server, which the shared
 * Dev Services broker must never see. Closed on a background thread (a broker takes ~15 s).
 */
public class ParkingRocketMQ implements QuarkusTestResourceLifecycleManager {

    /** Marks the test field that receives the running instance. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface InjectParkingRocketMQ {
    }

    private EmbeddedRocketMQ rocketMQ;

    @Override
    public Map<String, String> start() {
        Path dataDir = Path.of("target", "lag-parking-rocketmq").toAbsolutePath();
        EmbeddedRocketMQ.deleteDataDir(dataDir);
        rocketMQ = EmbeddedRocketMQ.start(EmbeddedRocketMQ.Options.forTests(dataDir)
                .brokerName("broker-parking")
                .transactionCheckMax(1));
        return Map.of(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, rocketMQ.nameServerAddress());
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(rocketMQ,
                new TestInjector.AnnotatedAndMatchesType(InjectParkingRocketMQ.class, EmbeddedRocketMQ.class));
    }

    @Override
    public void stop() {
        if (rocketMQ != null) {
            rocketMQ.closeInBackground();
        }
    }
}
