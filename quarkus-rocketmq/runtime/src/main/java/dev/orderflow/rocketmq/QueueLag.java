package dev.orderflow.rocketmq;

/**
 * How far one consumer group is behind on one queue.
 *
 * @param topic          the topic ({@code %RETRY%<group>} rows are the group's pending redeliveries)
 * @param brokerName     the broker holding the queue
 * @param queueId        the queue within the topic
 * @param brokerOffset   the offset the next stored message will get
 * @param consumerOffset the group's committed offset (0 when it never committed one)
 * @param behind         messages stored but not yet consumed and committed by the group
 */
public record QueueLag(String topic, String brokerName, int queueId, long brokerOffset, long consumerOffset,
        long behind) {
}
