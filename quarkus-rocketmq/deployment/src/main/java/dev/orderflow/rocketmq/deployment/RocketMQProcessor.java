package dev.orderflow.rocketmq.deployment;

import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;

/** Core build steps of the RocketMQ extension. */
class RocketMQProcessor {

    static final String FEATURE = "rocketmq";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }
}
