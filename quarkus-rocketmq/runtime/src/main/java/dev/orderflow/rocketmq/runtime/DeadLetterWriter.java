package dev.orderflow.rocketmq.runtime;

import java.util.List;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;

import dev.orderflow.rocketmq.RocketMQDeadLetters;

/**
 * Writes an incoming channel's failed messages to {@code %DLQ%<group>}: a copy of each with its
 * tags, keys and properties, plus where it came from and why it failed ({@link RocketMQDeadLetters}).
 * Its producer starts at the first write, so a channel that never dead-letters never opens one.
 */
final class DeadLetterWriter {

    private static final ConnectorLog LOG = ConnectorLog.of(DeadLetterWriter.class);
    private static final int MAX_REASON_LENGTH = 1000;

    private final String channel;
    private final String group;
    private final String nameServer;
    private final ClientCredentials credentials;
    private final String instanceName;
    private DefaultMQProducer producer;
    private boolean closed;

    DeadLetterWriter(String channel, String group, String nameServer, ClientCredentials credentials,
            String instanceName) {
        this.channel = channel;
        this.group = group;
        this.nameServer = nameServer;
        this.credentials = credentials;
        this.instanceName = instanceName;
    }

    /**
     * Writes the messages with the failure class and reason.
     *
     * @return false when a write failed: the caller then redelivers, so nothing is lost
     */
    boolean write(List<MessageExt> msgs, String failureClass, String reason) {
        String dlq = RocketMQDeadLetters.dlqTopic(group);
        String trimmedReason = reason == null ? "" : reason.length() > MAX_REASON_LENGTH
                ? reason.substring(0, MAX_REASON_LENGTH) : reason;
        try {
            DefaultMQProducer writer = producer();
            for (MessageExt m : msgs) {
                Message copy = new Message(dlq, m.getBody());
                if (m.getTags() != null) {
                    copy.setTags(m.getTags());
                }
                if (m.getKeys() != null) {
                    copy.setKeys(m.getKeys());
                }
                RocketMQMessages.userProperties(m).forEach(copy::putUserProperty);
                MessageAccessor.putProperty(copy, RocketMQDeadLetters.ORIGIN_TOPIC,
                        RocketMQMessages.metadata(m, group).topic());
                MessageAccessor.putProperty(copy, RocketMQDeadLetters.ORIGIN_MESSAGE_ID, m.getMsgId());
                copy.putUserProperty(RocketMQDeadLetters.FAILURE_CLASS, failureClass);
                copy.putUserProperty(RocketMQDeadLetters.FAILURE_REASON, trimmedReason.isEmpty() ? "-" : trimmedReason);
                copy.putUserProperty(RocketMQDeadLetters.ATTEMPTS, Integer.toString(m.getReconsumeTimes() + 1));
                copy.putUserProperty(RocketMQDeadLetters.DEAD_LETTERED_AT, Long.toString(System.currentTimeMillis()));
                SendResult result = writer.send(copy);
                if (result.getSendStatus() != SendStatus.SEND_OK) {
                    LOG.deadLetterRefused(channel, m.getMsgId(), result.getSendStatus());
                    return false;
                }
            }
            LOG.deadLettered(channel, msgs.size(), msgs.stream().map(MessageExt::getKeys).toList(), dlq, failureClass,
                    trimmedReason);
            return true;
        } catch (Exception e) {
            LOG.deadLetterFailed(e, channel, dlq);
            return false;
        }
    }

    private synchronized DefaultMQProducer producer() throws MQClientException {
        if (closed) {
            throw new IllegalStateException("Channel " + channel + " is stopped");
        }
        if (producer == null) {
            DefaultMQProducer started = RocketMQProducers.prepare(
                    new DefaultMQProducer(group + "_dlq_writer", credentials.rpcHook()), nameServer, instanceName);
            started.start();
            producer = started;
        }
        return producer;
    }

    synchronized void close() {
        closed = true;
        if (producer != null) {
            producer.shutdown();
        }
    }
}
