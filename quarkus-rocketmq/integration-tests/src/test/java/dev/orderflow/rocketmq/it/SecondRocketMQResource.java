package dev.orderflow.rocketmq.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A second real RocketMQ (name server + broker, in this JVM, free ports) for the channels
 * {@code health-in} and {@code health-out}, whose name server the readiness test stops, and
 * {@code unconfirmed-sync}/{@code unconfirmed-async}: the broker is a synchronous master that
 * waits for a replica which never connects, so it stores every send and answers it
 * {@code FLUSH_SLAVE_TIMEOUT} after {@link #REPLICA_TIMEOUT}. The Dev Services broker the other
 * channels use is left alone.
 *
 * <p>Shared by every test class (global scope), so it starts once per test JVM. A broker takes
 * ~15 s to shut down, so {@link #stop()} closes it on a background thread instead of making the
 * run wait.
 */
public class SecondRocketMQResource implements QuarkusTestResourceLifecycleManager {

    /** Marks the test field that receives the running instance. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface InjectSecondRocketMQ {
    }

    static final Duration REPLICA_TIMEOUT = Duration.ofMillis(300);

    private EmbeddedRocketMQ rocketMQ;

    @Override
    public Map<String, String> start() {
        Path dataDir = Path.of("target", "it-second-rocketmq").toAbsolutePath();
        EmbeddedRocketMQ.deleteDataDir(dataDir);
        rocketMQ = EmbeddedRocketMQ.start(EmbeddedRocketMQ.Options.forTests(dataDir).brokerName("broker-second")
                .syncMaster(2, REPLICA_TIMEOUT));
        return Map.of(
                "mp.messaging.incoming.health-in.name-server", rocketMQ.nameServerAddress(),
                "mp.messaging.outgoing.health-out.name-server", rocketMQ.nameServerAddress(),
                "mp.messaging.outgoing.unconfirmed-sync.name-server", rocketMQ.nameServerAddress(),
                "mp.messaging.outgoing.unconfirmed-async.name-server", rocketMQ.nameServerAddress());
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(rocketMQ,
                new TestInjector.AnnotatedAndMatchesType(InjectSecondRocketMQ.class, EmbeddedRocketMQ.class));
    }

    @Override
    public void stop() {
        if (rocketMQ != null) {
            rocketMQ.closeInBackground();
        }
    }
}
