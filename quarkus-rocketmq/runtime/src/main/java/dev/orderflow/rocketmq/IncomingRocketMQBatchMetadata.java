package dev.orderflow.rocketmq;

import java.util.List;

/** Metadata of a batch message ({@code batch=true}): one entry per payload element, same order. */
public record IncomingRocketMQBatchMetadata(List<IncomingRocketMQMetadata> messages) {
}
