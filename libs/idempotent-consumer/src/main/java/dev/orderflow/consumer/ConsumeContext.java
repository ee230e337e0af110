package dev.orderflow.consumer;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;

/**
 * What the handler may want to know about the delivery.
 *
 * @param consumerGroup the consumer group (from the connector's metadata)
 * @param messageKey    the business key the pipeline dedupes on
 * @param attempt       1 on first delivery, reconsumeTimes + 1 after that
 * @param metadata      everything the connector attached
 */
public record ConsumeContext(String consumerGroup, String messageKey, int attempt, IncomingRocketMQMetadata metadata) {
}
