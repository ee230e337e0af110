package dev.orderflow.rocketmq.deployment;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Dev Services for RocketMQ: a real Apache RocketMQ name server and broker started inside the
 * application's JVM in dev and test mode when no name server address is configured.
 */
@ConfigMapping(prefix = "quarkus.rocketmq.devservices")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface RocketMQDevServicesConfig {

    /**
     * Whether to start the in-process broker. It is started only in dev and test mode and only
     * when {@code mp.messaging.connector.smallrye-rocketmq.name-server} is not set.
     */
    @WithDefault("true")
    boolean enabled();

    /** Folder for the broker's store and logs. Default: {@code target/rocketmq-devservices}. */
    Optional<String> dataDir();

    /**
     * Keep the store between runs. By default the folder is wiped at start, so every test run
     * begins with empty topics and offsets.
     */
    @WithDefault("false")
    boolean keepData();

    /** Fixed name server port; a free port by default. */
    Optional<Integer> nameServerPort();

    /**
     * Broker delay-level table used for retries (RECONSUME_LATER), e.g. {@code "1s 5s 10s"}.
     * The default is a table of seconds so that retry tests finish quickly.
     */
    @WithDefault("1s 1s 1s 2s 2s 2s 3s 3s 3s 4s 4s 4s 5s 5s 5s 6s 6s 6s")
    String messageDelayLevel();
}
