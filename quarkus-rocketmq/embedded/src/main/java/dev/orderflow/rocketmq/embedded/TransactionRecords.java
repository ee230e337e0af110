package dev.orderflow.rocketmq.embedded;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.topic.TopicValidator;

/**
 * What a broker decided for a transactional message, read from the broker's own records over a
 * plain client: for tests that must tell "rolled back" from "not decided yet" instead of waiting
 * to see that nothing arrives.
 *
 * <p>The records: the half message ({@code RMQ_SYS_TRANS_HALF_TOPIC}, found by its key and real
 * topic, once per check-back: each check stores it again); the marker the broker writes when a
 * transaction ends either way (tag {@code d} in {@code RMQ_SYS_TRANS_OP_HALF_TOPIC}, a body listing
 * the ended half messages' queue offsets); and the message in its topic, which only a commit stores.
 */
public final class TransactionRecords {

    /** The broker's decision on a transactional message. */
    public enum Decision {
        /** The half message is stored and no end of its transaction is recorded yet. */
        UNDECIDED,
        COMMITTED,
        ROLLED_BACK
    }

    /** Tag of the broker's "transaction ended" markers in the op topic. */
    private static final String ENDED_TAG = "d";
    private static final int PULL_SIZE = 32;

    private TransactionRecords() {
    }

    /**
     * The decision recorded by the broker(s) behind {@code nameServer} for the half message sent to
     * {@code topic} with {@code key} (the message's KEYS, exactly).
     *
     * @throws IllegalStateException when no half message with that key for that topic is stored
     */
    public static Decision decision(String nameServer, String topic, String key) {
        return decision(nameServer, topic, "key " + key, m -> key.equals(m.getKeys()));
    }

    /**
     * The decision for the half message(s) sent to {@code topic} that {@code message} matches (it
     * sees the half message and, after a commit, the message in {@code topic}: the same body, keys
     * and user properties). Match one transaction's message only.
     *
     * @param described what {@code message} matches, for the error when nothing does
     * @throws IllegalStateException when no matching half message for that topic is stored
     */
    public static Decision decision(String nameServer, String topic, String described, Predicate<MessageExt> message) {
        DefaultMQPullConsumer reader = reader(nameServer);
        try {
            List<Long> halfOffsets = new ArrayList<>();
            for (MessageExt half : readAll(reader, TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC)) {
                if (topic.equals(half.getProperty(MessageConst.PROPERTY_REAL_TOPIC)) && message.test(half)) {
                    halfOffsets.add(half.getQueueOffset());
                }
            }
            if (halfOffsets.isEmpty()) {
                throw new IllegalStateException("No half message with " + described + " for " + topic + " is stored");
            }
            Set<Long> ended = new HashSet<>();
            for (MessageExt marker : readAll(reader, TopicValidator.RMQ_SYS_TRANS_OP_HALF_TOPIC)) {
                if (ENDED_TAG.equals(marker.getTags())) {
                    for (String offset : new String(marker.getBody(), StandardCharsets.UTF_8).split(",")) {
                        if (!offset.isBlank()) {
                            ended.add(Long.parseLong(offset.trim()));
                        }
                    }
                }
            }
            // Each check-back stores the half message again at a new offset and asks about that copy:
            // the marker names the copy whose answer ended the transaction.
            if (halfOffsets.stream().noneMatch(ended::contains)) {
                return Decision.UNDECIDED;
            }
            boolean stored = readAll(reader, topic).stream().anyMatch(message);
            return stored ? Decision.COMMITTED : Decision.ROLLED_BACK;
        } finally {
            reader.shutdown();
        }
    }

    @SuppressWarnings("deprecation") // DefaultMQPullConsumer: the client that reads a queue from a chosen offset
    private static DefaultMQPullConsumer reader(String nameServer) {
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        DefaultMQPullConsumer reader = new DefaultMQPullConsumer("transaction_records_" + id);
        reader.setNamesrvAddr(nameServer);
        reader.setInstanceName("transaction-records-" + id);
        try {
            reader.start();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start a reader on " + nameServer, e);
        }
        return reader;
    }

    @SuppressWarnings("deprecation")
    private static List<MessageExt> readAll(DefaultMQPullConsumer reader, String topic) {
        List<MessageExt> all = new ArrayList<>();
        try {
            for (MessageQueue queue : reader.fetchSubscribeMessageQueues(topic)) {
                long offset = reader.minOffset(queue);
                long max = reader.maxOffset(queue);
                while (offset < max) {
                    PullResult pull = reader.pull(queue, "*", offset, PULL_SIZE);
                    if (pull.getPullStatus() != PullStatus.FOUND) {
                        break;
                    }
                    all.addAll(pull.getMsgFoundList());
                    offset = pull.getNextBeginOffset();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading " + topic, e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read " + topic + ": " + e.getMessage(), e);
        }
        return all;
    }
}
