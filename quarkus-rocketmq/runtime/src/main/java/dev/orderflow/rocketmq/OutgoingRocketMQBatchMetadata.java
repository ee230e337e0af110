package dev.orderflow.rocketmq;

import java.util.List;

/**
 * Marks an outgoing {@code smallrye-rocketmq} message whose payload is a {@code List} as a
 * RocketMQ batch: the elements are sent together in one request ({@code DefaultMQProducer.send(Collection)}),
 * stored all or none, and the message is acked on SEND_OK or nacked otherwise, as a whole.
 * {@code messages.get(i)} is the metadata of payload element {@code i} (keys, tag, properties,
 * topic); each element is encoded like a single payload (String as UTF-8, byte[] as is, anything
 * else as JSON).
 *
 * <p>What RocketMQ batches cannot carry is refused with a nack before anything is sent: a delay
 * level, a sharding key (the whole batch lands on one queue the producer picks), elements for
 * different topics, a {@code %RETRY%} topic, an empty element body, and an encoded batch over the
 * producer's 4 MiB message size limit (the client's check). Only {@code sync} and {@code async}
 * channels send batches: RocketMQ has no oneway batch send. Transactional channels cannot send them.
 *
 * @param messages one entry per payload element, in payload order; not empty
 */
public record OutgoingRocketMQBatchMetadata(List<OutgoingRocketMQMetadata> messages) {

    public OutgoingRocketMQBatchMetadata {
        messages = List.copyOf(messages);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("A RocketMQ batch needs at least one message");
        }
    }

    public static OutgoingRocketMQBatchMetadata of(List<OutgoingRocketMQMetadata> messages) {
        return new OutgoingRocketMQBatchMetadata(messages);
    }

    public int size() {
        return messages.size();
    }
}
