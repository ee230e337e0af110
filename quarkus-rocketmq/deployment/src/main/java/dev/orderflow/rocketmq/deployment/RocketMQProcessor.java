package dev.orderflow.rocketmq.deployment;

import java.util.logging.Level;

import dev.orderflow.rocketmq.runtime.DefaultRocketMQAdmin;
import dev.orderflow.rocketmq.runtime.RemotingEncodingRecorder;
import io.quarkus.arc.deployment.ExcludedTypeBuildItem;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.LogCategoryBuildItem;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;

/** Core build steps of the RocketMQ extension. */
class RocketMQProcessor {

    static final String FEATURE = "rocketmq";
    /** RocketMQ's client API class, whose one routine warning is a missing topic's route. */
    static final String MQ_CLIENT_API_CATEGORY = "org.apache.rocketmq.client.impl.MQClientAPIImpl";
    /** RocketMQ's admin client, in rocketmq-tools. */
    static final String ADMIN_CLIENT = "org.apache.rocketmq.tools.admin.DefaultMQAdminExt";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * RocketMQ's own log records reach the application's log (RocketMQLogProvider), all under the
     * category {@code org.apache.rocketmq}: warnings and errors by default. Its INFO records are
     * routine (a line per client every few seconds); {@code quarkus.log.category."org.apache.rocketmq".level}
     * lowers the threshold when needed.
     */
    @BuildStep
    LogCategoryBuildItem rocketMQLogLevel() {
        return new LogCategoryBuildItem("org.apache.rocketmq", Level.WARNING);
    }

    /**
     * The client's API class warns on every route look-up of a topic that does not exist. Reading a
     * dead-letter topic before its first message, or the parked half messages' topic, is such a
     * look-up ({@code RocketMQAdmin} answers "no messages"): a lag monitor would log a warning per topic
     * and sample, forever. Errors only; the category's level lowers it.
     */
    @BuildStep
    LogCategoryBuildItem rocketMQClientApiLogLevel() {
        return new LogCategoryBuildItem(MQ_CLIENT_API_CATEGORY, Level.SEVERE);
    }

    /**
     * {@code RocketMQAdmin} is built on RocketMQ's admin client ({@code rocketmq-tools}), an optional
     * dependency of the runtime: an application that does not add it has no such bean.
     */
    @BuildStep
    void adminOnlyWithTheAdminClient(BuildProducer<ExcludedTypeBuildItem> excluded) {
        if (!QuarkusClassLoader.isClassPresentAtRuntime(ADMIN_CLIENT)) {
            excluded.produce(new ExcludedTypeBuildItem(DefaultRocketMQAdmin.class.getName()));
        }
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    ServiceStartBuildItem binaryRemotingHeaders(RemotingEncodingRecorder recorder) {
        recorder.applyDefault();
        // Ordered before the startup event, hence before any channel creates a client (RocketMQ
        // reads the serialize type once, at class initialization).
        return new ServiceStartBuildItem("rocketmq-remoting-encoding");
    }
}
