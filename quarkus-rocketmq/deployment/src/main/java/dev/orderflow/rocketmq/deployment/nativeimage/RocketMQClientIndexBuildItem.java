package dev.orderflow.rocketmq.deployment.nativeimage;

import java.util.List;

import org.jboss.jandex.IndexView;

import io.quarkus.builder.item.SimpleBuildItem;

/**
 * A Jandex index of the RocketMQ client jars on the application's runtime class path
 * ({@code org.apache.rocketmq:*} and the shaded logging jars {@code io.github.aliyunmq:*}).
 *
 * <p>Kept apart from the combined application index on purpose: the client's ~3,000 classes are
 * needed only by the native-image registration steps, and other extensions scanning the
 * combined index (ORM, REST, Jackson) have no business seeing them.
 */
public final class RocketMQClientIndexBuildItem extends SimpleBuildItem {

    private final IndexView index;
    private final List<String> indexedArtifacts;

    public RocketMQClientIndexBuildItem(IndexView index, List<String> indexedArtifacts) {
        this.index = index;
        this.indexedArtifacts = List.copyOf(indexedArtifacts);
    }

    public IndexView index() {
        return index;
    }

    /** {@code groupId:artifactId:version} of every jar that went into the index. */
    public List<String> indexedArtifacts() {
        return indexedArtifacts;
    }
}
