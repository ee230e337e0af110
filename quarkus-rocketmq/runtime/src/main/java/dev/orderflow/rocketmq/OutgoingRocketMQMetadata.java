package dev.orderflow.rocketmq;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-message settings for an outgoing {@code smallrye-rocketmq} message. Anything not set falls
 * back to the channel configuration.
 *
 * @param topic       overrides the channel's topic
 * @param tag         overrides the channel's tag
 * @param keys        the message KEYS (business keys the consumers dedupe on)
 * @param shardingKey selects the queue by hash, so messages with one sharding key stay in order
 *                    (not honoured by transactional sends: the broker picks their queue)
 * @param properties  user properties
 * @param delayLevel  broker delay level (0 = deliver now)
 */
public record OutgoingRocketMQMetadata(
        String topic,
        String tag,
        List<String> keys,
        String shardingKey,
        Map<String, String> properties,
        int delayLevel) {

    public OutgoingRocketMQMetadata {
        keys = keys == null ? List.of() : List.copyOf(keys);
        properties = properties == null ? Map.of() : Map.copyOf(properties);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private String topic;
        private String tag;
        private List<String> keys = List.of();
        private String shardingKey;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private int delayLevel;

        public Builder withTopic(String topic) { this.topic = topic; return this; }
        public Builder withTag(String tag) { this.tag = tag; return this; }
        public Builder withKeys(String... keys) { this.keys = List.of(keys); return this; }
        public Builder withKeys(List<String> keys) { this.keys = List.copyOf(keys); return this; }
        public Builder withShardingKey(String shardingKey) { this.shardingKey = shardingKey; return this; }
        public Builder withProperty(String name, String value) { this.properties.put(name, value); return this; }
        public Builder withDelayLevel(int delayLevel) { this.delayLevel = delayLevel; return this; }

        public OutgoingRocketMQMetadata build() {
            return new OutgoingRocketMQMetadata(topic, tag, keys, shardingKey, properties, delayLevel);
        }
    }
}
