package dev.orderflow.rocketmq.runtime;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.eclipse.microprofile.reactive.messaging.Message;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.OutgoingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.rocketmq.TransactionCheck;

/** Conversions between SmallRye messages and RocketMQ messages: the one place for both ways. */
public final class RocketMQMessages {

    private static final AtomicInteger INSTANCE_COUNTER = new AtomicInteger();
    private static final String SHARED_INSTANCE_EPOCH = Long.toHexString(System.nanoTime());
    private static final Map<SharedInstance, String> SHARED_INSTANCES = new ConcurrentHashMap<>();

    private RocketMQMessages() {
    }

    /**
     * A RocketMQ message for {@code message}: payload as bytes (String as UTF-8, byte[] as is,
     * anything else as JSON), topic/tag/keys/properties from {@link OutgoingRocketMQMetadata}
     * or the channel defaults.
     */
    public static org.apache.rocketmq.common.message.Message toRocketMQ(Message<?> message, String defaultTopic,
            String defaultTag, ObjectMapper objectMapper) {
        OutgoingRocketMQMetadata metadata = message.getMetadata(OutgoingRocketMQMetadata.class).orElse(null);
        String topic = metadata != null && metadata.topic() != null ? metadata.topic() : defaultTopic;
        String tag = metadata != null && metadata.tag() != null ? metadata.tag() : defaultTag;
        org.apache.rocketmq.common.message.Message out = new org.apache.rocketmq.common.message.Message(topic,
                encode(message.getPayload(), objectMapper));
        if (tag != null) {
            out.setTags(tag);
        }
        if (metadata != null) {
            if (!metadata.keys().isEmpty()) {
                out.setKeys(metadata.keys());
            }
            metadata.properties().forEach(out::putUserProperty);
            if (metadata.delayLevel() > 0) {
                out.setDelayTimeLevel(metadata.delayLevel());
            }
        }
        return out;
    }

    /**
     * The RocketMQ messages of a batch message ({@link OutgoingRocketMQBatchMetadata}): element
     * {@code i} of the {@code List} payload with metadata {@code i}, converted like a single message.
     * Checks up front the rules of RocketMQ's {@code MessageBatch} that the client would otherwise
     * report less clearly or, for the sharding key, not at all (a batch goes to one queue).
     *
     * @throws IllegalArgumentException when the batch cannot be sent as one RocketMQ batch
     */
    public static List<org.apache.rocketmq.common.message.Message> toRocketMQBatch(Message<?> message,
            OutgoingRocketMQBatchMetadata batch, String defaultTopic, String defaultTag, ObjectMapper objectMapper) {
        if (!(message.getPayload() instanceof List<?> elements)) {
            throw new IllegalArgumentException("A batch message needs a List payload, not "
                    + (message.getPayload() == null ? "null" : message.getPayload().getClass().getName()));
        }
        if (elements.size() != batch.size()) {
            throw new IllegalArgumentException("A batch of " + elements.size() + " payload element(s) has "
                    + batch.size() + " metadata entries; it needs one per element");
        }
        if (message.getMetadata(OutgoingRocketMQMetadata.class).isPresent()) {
            throw new IllegalArgumentException("A batch message carries its settings per element in "
                    + "OutgoingRocketMQBatchMetadata, not in an OutgoingRocketMQMetadata of its own");
        }
        List<org.apache.rocketmq.common.message.Message> out = new ArrayList<>(elements.size());
        String topic = null;
        for (int i = 0; i < elements.size(); i++) {
            OutgoingRocketMQMetadata element = batch.messages().get(i);
            if (element.delayLevel() > 0) {
                throw new IllegalArgumentException("Batch element " + i + ": RocketMQ batches cannot carry a delay "
                        + "level (" + element.delayLevel() + "); send delayed messages one by one");
            }
            if (element.shardingKey() != null) {
                throw new IllegalArgumentException("Batch element " + i + ": RocketMQ batches cannot carry a sharding "
                        + "key (the whole batch lands on one queue the producer picks); send such messages one by one");
            }
            org.apache.rocketmq.common.message.Message msg = toRocketMQ(Message.of(elements.get(i)).addMetadata(element),
                    defaultTopic, defaultTag, objectMapper);
            if (topic == null) {
                topic = msg.getTopic();
                if (topic.startsWith(MixAll.RETRY_GROUP_TOPIC_PREFIX)) {
                    throw new IllegalArgumentException("RocketMQ batches cannot be sent to a retry topic (" + topic + ")");
                }
            } else if (!topic.equals(msg.getTopic())) {
                throw new IllegalArgumentException("Batch element " + i + " goes to topic " + msg.getTopic()
                        + ", element 0 to " + topic + ": all elements of a RocketMQ batch go to one topic");
            }
            out.add(msg);
        }
        return out;
    }

    static byte[] encode(Object payload, ObjectMapper objectMapper) {
        if (payload instanceof byte[] bytes) {
            return bytes;
        }
        if (payload instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return objectMapper.writeValueAsBytes(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot serialize payload of type " + payload.getClass().getName()
                    + " to JSON", e);
        }
    }

    /** What the broker says about {@code msg}, for the application. */
    public static IncomingRocketMQMetadata metadata(MessageExt msg, String consumerGroup) {
        String retryTopic = msg.getProperty(MessageConst.PROPERTY_RETRY_TOPIC);
        return new IncomingRocketMQMetadata(
                msg.getMsgId(),
                keys(msg),
                msg.getTags(),
                retryTopic != null ? retryTopic : msg.getTopic(),
                msg.getQueueId(),
                msg.getBrokerName(),
                msg.getQueueOffset(),
                msg.getReconsumeTimes(),
                msg.getBornTimestamp(),
                msg.getStoreTimestamp(),
                userProperties(msg),
                consumerGroup);
    }

    /** The KEYS property split on spaces; empty when the message has none. */
    public static List<String> keys(org.apache.rocketmq.common.message.Message msg) {
        String keys = msg.getKeys();
        return keys == null || keys.isBlank() ? List.of()
                : Arrays.stream(keys.split(MessageConst.KEY_SEPARATOR)).filter(k -> !k.isBlank()).toList();
    }

    /** What a {@link dev.orderflow.rocketmq.RocketMQTransactionChecker} is told about a half message. */
    public static TransactionCheck transactionCheck(MessageExt msg, String channel, String producerGroup) {
        return new TransactionCheck(channel, producerGroup, msg.getTopic(), msg.getTags(), keys(msg),
                userProperties(msg), msg.getBody(), msg.getBornTimestamp(), msg.getTransactionId());
    }

    /** A message read from a DLQ, with the failure properties the connector wrote (see {@link RocketMQDeadLetters}). */
    public static DeadLetter deadLetter(MessageExt msg) {
        Map<String, String> properties = userProperties(msg);
        String originTopic = msg.getProperty(RocketMQDeadLetters.ORIGIN_TOPIC);
        if (originTopic == null) {
            // dead-lettered by the broker itself (sendMessageBack past the maximum): it keeps the retry marker
            originTopic = msg.getProperty(MessageConst.PROPERTY_RETRY_TOPIC);
        }
        String originMessageId = msg.getProperty(RocketMQDeadLetters.ORIGIN_MESSAGE_ID);
        if (originMessageId == null) {
            originMessageId = msg.getProperty(MessageConst.PROPERTY_ORIGIN_MESSAGE_ID);
        }
        String attempts = properties.get(RocketMQDeadLetters.ATTEMPTS);
        return new DeadLetter(msg.getMsgId(), msg.getBrokerName(), msg.getQueueId(), msg.getQueueOffset(),
                msg.getStoreTimestamp(), originTopic, originMessageId,
                properties.get(RocketMQDeadLetters.FAILURE_CLASS), properties.get(RocketMQDeadLetters.FAILURE_REASON),
                attempts == null ? 0 : Integer.parseInt(attempts), keys(msg), msg.getTags(), properties, msg.getBody());
    }

    /**
     * The message that re-drives {@code entry} to {@code consumerGroup} only: sent to the group's
     * retry topic and marked with the origin topic ({@code RETRY_TOPIC}), which the push consumer
     * restores as the message topic. Keys, tag and user properties are kept, the failure
     * properties dropped.
     */
    public static org.apache.rocketmq.common.message.Message redrive(DeadLetter entry, String consumerGroup,
            byte[] newBody) {
        if (entry.originTopic() == null) {
            throw new IllegalArgumentException("Dead letter " + entry.msgId() + " does not say its origin topic");
        }
        org.apache.rocketmq.common.message.Message out = new org.apache.rocketmq.common.message.Message(
                RocketMQDeadLetters.retryTopic(consumerGroup), newBody != null ? newBody : entry.body());
        if (entry.tag() != null) {
            out.setTags(entry.tag());
        }
        if (!entry.keys().isEmpty()) {
            out.setKeys(entry.keys());
        }
        entry.properties().forEach((name, value) -> {
            if (!name.startsWith(RocketMQDeadLetters.FAILURE_PROPERTY_PREFIX)) {
                out.putUserProperty(name, value);
            }
        });
        out.putUserProperty(RocketMQDeadLetters.REDRIVEN_FROM, entry.msgId());
        MessageAccessor.putProperty(out, MessageConst.PROPERTY_RETRY_TOPIC, entry.originTopic());
        return out;
    }

    /** User properties only: the broker's own ones (KEYS, TAGS, RETRY_TOPIC, ...) are left out. */
    public static Map<String, String> userProperties(org.apache.rocketmq.common.message.Message msg) {
        Map<String, String> user = new HashMap<>();
        msg.getProperties().forEach((name, value) -> {
            if (!MessageConst.STRING_HASH_SET.contains(name)) {
                user.put(name, value);
            }
        });
        return Map.copyOf(user);
    }

    /**
     * A client instance name unique in this process, for a client that does not share: a
     * transactional channel's producer (check-backs are served on its own connection and threads)
     * and one that comes and goes with a fixed group (the DLQ browser: two browses at once would
     * be the same group twice in one instance).
     */
    static String instanceName(String purpose) {
        return purpose + "@" + ProcessHandle.current().pid() + "#" + INSTANCE_COUNTER.incrementAndGet();
    }

    /**
     * The client instance the extension's long-lived clients (channels other than transactional
     * ones, DLQ writers, admin, re-drive) share by default, one per name server and credentials
     * (an instance signs every request with the credentials of the client that created it). Each
     * instance has its own connections, Netty loops, pull, rebalance, heartbeat and callback
     * threads: with one instance each, status-service's seven clients hold over a hundred threads.
     * The groups of one instance must differ, which RocketMQ requires of one process's clients
     * anyway. The name carries the pid, so two processes never share a client id, and a value fixed
     * at class loading, so that an application restarted in the same JVM (tests) does not meet a
     * leftover instance of the previous one. It never carries a key.
     */
    static String sharedInstanceName(String nameServer, ClientCredentials credentials) {
        return SHARED_INSTANCES.computeIfAbsent(new SharedInstance(nameServer, credentials),
                shared -> "orderflow@" + ProcessHandle.current().pid() + "#" + SHARED_INSTANCE_EPOCH + "-"
                        + INSTANCE_COUNTER.incrementAndGet());
    }

    /** {@link #sharedInstanceName(String, ClientCredentials)} of clients without credentials. */
    static String sharedInstanceName(String nameServer) {
        return sharedInstanceName(nameServer, ClientCredentials.NONE);
    }

    private record SharedInstance(String nameServer, ClientCredentials credentials) {
    }
}
