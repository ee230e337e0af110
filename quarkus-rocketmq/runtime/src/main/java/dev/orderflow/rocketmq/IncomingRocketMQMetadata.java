package dev.orderflow.rocketmq;

import java.util.List;
import java.util.Map;

/**
 * What the broker says about one consumed message. Attached to every incoming message of a
 * {@code smallrye-rocketmq} channel; for batch channels, one per element in
 * {@link IncomingRocketMQBatchMetadata}.
 *
 * @param msgId          the broker's message id (differs between producer and consumer for
 *                       transactional messages: dedupe on {@link #key()}, never on this)
 * @param keys           the KEYS property, split on spaces
 * @param tags           the tag
 * @param topic          the original topic (also for messages redelivered from the retry topic)
 * @param queueId        the queue within the topic
 * @param brokerName     the broker holding the queue
 * @param queueOffset    the offset within the queue
 * @param reconsumeTimes how many times this message was delivered before (0 on first delivery)
 * @param bornTimestamp  when the producer created the message, epoch millis
 * @param storeTimestamp when the broker stored it, epoch millis
 * @param properties     user properties
 * @param consumerGroup  the consumer group of the channel
 */
public record IncomingRocketMQMetadata(
        String msgId,
        List<String> keys,
        String tags,
        String topic,
        int queueId,
        String brokerName,
        long queueOffset,
        int reconsumeTimes,
        long bornTimestamp,
        long storeTimestamp,
        Map<String, String> properties,
        String consumerGroup) {

    /** The first message key, or null when the message has none. */
    public String key() {
        return keys.isEmpty() ? null : keys.get(0);
    }

    /** A user property, or null. */
    public String property(String name) {
        return properties.get(name);
    }
}
