package dev.orderflow.rocketmq.deployment;

import dev.orderflow.rocketmq.runtime.RemotingEncodingRecorder;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;

/** Core build steps of the RocketMQ extension. */
class RocketMQProcessor {

    static final String FEATURE = "rocketmq";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
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
