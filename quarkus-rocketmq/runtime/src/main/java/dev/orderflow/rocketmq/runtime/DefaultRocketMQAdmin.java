package dev.orderflow.rocketmq.runtime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.remoting.protocol.admin.OffsetWrapper;
import org.apache.rocketmq.remoting.protocol.admin.TopicOffset;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.remoting.protocol.body.QueueTimeSpan;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.eclipse.microprofile.config.Config;

import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.GroupLag;
import dev.orderflow.rocketmq.QueueLag;
import dev.orderflow.rocketmq.RocketMQAdmin;
import dev.orderflow.rocketmq.RocketMQAdminException;
import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.RocketMQDeadLetters;

/**
 * {@link RocketMQAdmin} on {@link DefaultMQAdminExt} (the client behind {@code mqadmin}), a pull
 * consumer per browse for reading DLQs without consuming them (explicit offsets, nothing
 * committed), and a producer for re-drives. The admin client and the producer start on first use
 * and stop with the application. All three sign with the connector-level credentials
 * ({@code mp.messaging.connector.smallrye-rocketmq.access-key} and {@code secret-key}), if set.
 */
@ApplicationScoped
public class DefaultRocketMQAdmin implements RocketMQAdmin {

    private static final ConnectorLog LOG = ConnectorLog.of(DefaultRocketMQAdmin.class);

    /** Group of the DLQ reader; it never commits an offset, so reading leaves no trace. */
    private static final String DLQ_BROWSER_GROUP = "orderflow_dlq_browser";
    private static final String REDRIVE_PRODUCER_GROUP = "orderflow_dlq_redrive";
    private static final long BROWSE_TIMEOUT_MILLIS = 10_000;
    /** Longest wait for the broker's answer to one pull of a dead-letter queue. */
    private static final long BROWSE_PULL_TIMEOUT_MILLIS = 3_000;

    @Inject
    Config config;

    private DefaultMQAdminExt admin;
    private DefaultMQProducer redriveProducer;

    @Override
    public GroupLag lag(String consumerGroup) {
        DefaultMQAdminExt client = admin();
        ConsumeStats stats = new ConsumeStats();
        stats.getOffsetTable().putAll(consumeStats(client, consumerGroup, null));
        ConsumerConnection connection = consumerConnection(client, consumerGroup);
        // A topic the group subscribes to but never committed an offset on is missing above.
        for (String topic : connection.getSubscriptionTable().keySet()) {
            if (stats.getOffsetTable().keySet().stream().noneMatch(mq -> mq.getTopic().equals(topic))) {
                stats.getOffsetTable().putAll(consumeStats(client, consumerGroup, topic));
            }
        }
        String retryTopic = RocketMQDeadLetters.retryTopic(consumerGroup);
        List<QueueLag> queues = new ArrayList<>();
        Set<String> topicsBehind = new LinkedHashSet<>();
        long retryBacklog = 0;
        for (Map.Entry<MessageQueue, OffsetWrapper> e : stats.getOffsetTable().entrySet()) {
            MessageQueue mq = e.getKey();
            long behind = Math.max(0, e.getValue().getBrokerOffset() - e.getValue().getConsumerOffset());
            queues.add(new QueueLag(mq.getTopic(), mq.getBrokerName(), mq.getQueueId(), e.getValue().getBrokerOffset(),
                    e.getValue().getConsumerOffset(), behind));
            if (behind > 0) {
                topicsBehind.add(mq.getTopic());
            }
            if (mq.getTopic().equals(retryTopic)) {
                retryBacklog += behind;
            }
        }
        queues.sort(Comparator.comparing(QueueLag::topic).thenComparing(QueueLag::brokerName)
                .thenComparingInt(QueueLag::queueId));
        Map<String, Long> oldestByTopic = oldestUnconsumedAgeByTopic(client, consumerGroup, topicsBehind, queues);
        long oldest = oldestByTopic.values().stream().mapToLong(Long::longValue).max().orElse(0);
        return new GroupLag(consumerGroup, stats.computeTotalDiff(), oldest, retryBacklog,
                topicDepth(client, RocketMQDeadLetters.dlqTopic(consumerGroup)), queues, oldestByTopic,
                connection.getConnectionSet().size());
    }

    @Override
    public long topicDepth(String topic) {
        return topicDepth(admin(), topic);
    }

    /**
     * The age of the next unconsumed message per topic, from the broker's consume time span
     * ({@code delayTime} = now − store time of the message at the consumer offset).
     * {@code OffsetWrapper.lastTimestamp} would be the last consumed message instead.
     */
    private static Map<String, Long> oldestUnconsumedAgeByTopic(DefaultMQAdminExt client, String group,
            Set<String> topicsBehind, List<QueueLag> queues) {
        long now = System.currentTimeMillis();
        Map<String, Long> oldestByTopic = new TreeMap<>();
        for (String topic : topicsBehind) {
            List<QueueTimeSpan> spans;
            try {
                spans = client.queryConsumeTimeSpan(topic, group);
            } catch (Exception e) {
                throw new RocketMQAdminException("Cannot query the consume time span of group " + group + " on "
                        + topic, e);
            }
            for (QueueTimeSpan span : spans) {
                MessageQueue mq = span.getMessageQueue();
                boolean behind = queues.stream().anyMatch(q -> q.behind() > 0 && q.topic().equals(mq.getTopic())
                        && q.brokerName().equals(mq.getBrokerName()) && q.queueId() == mq.getQueueId());
                if (!behind || span.getDelayTime() <= 0) {
                    continue;
                }
                long age = span.getDelayTime();
                // With no committed offset the broker times "offset -1": no unconsumed message is older than the queue.
                if (span.getMinTimeStamp() > 0) {
                    age = Math.min(age, now - span.getMinTimeStamp());
                }
                oldestByTopic.merge(topic, age, Math::max);
            }
        }
        return oldestByTopic;
    }

    /** The group's consume stats, or an empty table when the broker knows nothing of it. */
    private static Map<MessageQueue, OffsetWrapper> consumeStats(DefaultMQAdminExt client, String group, String topic) {
        try {
            return topic == null ? client.examineConsumeStats(group).getOffsetTable()
                    : client.examineConsumeStats(group, topic).getOffsetTable();
        } catch (MQClientException e) {
            if (isUnknown(e.getResponseCode())) {
                return Map.of();
            }
            throw new RocketMQAdminException("Cannot read the consume stats of group " + group, e);
        } catch (MQBrokerException e) {
            if (isUnknown(e.getResponseCode())) {
                return Map.of();
            }
            throw new RocketMQAdminException("Cannot read the consume stats of group " + group, e);
        } catch (Exception e) {
            throw new RocketMQAdminException("Cannot read the consume stats of group " + group, e);
        }
    }

    /** The group's online consumers and their subscriptions; empty when none is online. */
    private static ConsumerConnection consumerConnection(DefaultMQAdminExt client, String group) {
        try {
            return client.examineConsumerConnectionInfo(group);
        } catch (MQBrokerException e) {
            if (isUnknown(e.getResponseCode())) {
                return new ConsumerConnection();
            }
            throw new RocketMQAdminException("Cannot read the consumer connections of group " + group, e);
        } catch (MQClientException e) {
            if (isUnknown(e.getResponseCode())) {
                return new ConsumerConnection();
            }
            throw new RocketMQAdminException("Cannot read the consumer connections of group " + group, e);
        } catch (Exception e) {
            throw new RocketMQAdminException("Cannot read the consumer connections of group " + group, e);
        }
    }

    /** "No such topic / no consumer online / nothing consumed": the group has no lag to report there. */
    private static boolean isUnknown(int responseCode) {
        return responseCode == ResponseCode.TOPIC_NOT_EXIST || responseCode == ResponseCode.CONSUMER_NOT_ONLINE;
    }

    /** Queue offsets of {@code topic}; empty when the topic does not exist. */
    private static Map<MessageQueue, TopicOffset> topicOffsets(DefaultMQAdminExt client, String topic) {
        try {
            return client.examineTopicStats(topic).getOffsetTable();
        } catch (MQClientException e) {
            if (e.getResponseCode() == ResponseCode.TOPIC_NOT_EXIST) {
                return Map.of();
            }
            throw new RocketMQAdminException("Cannot read the offsets of " + topic, e);
        } catch (Exception e) {
            throw new RocketMQAdminException("Cannot read the offsets of " + topic, e);
        }
    }

    private static long topicDepth(DefaultMQAdminExt client, String topic) {
        return topicOffsets(client, topic).values().stream()
                .mapToLong(o -> Math.max(0, o.getMaxOffset() - o.getMinOffset())).sum();
    }

    @Override
    public List<DeadLetter> browseDeadLetters(String consumerGroup, int max) {
        if (max <= 0) {
            return List.of();
        }
        String dlq = RocketMQDeadLetters.dlqTopic(consumerGroup);
        Map<MessageQueue, TopicOffset> offsets = new HashMap<>(topicOffsets(admin(), dlq));
        offsets.values().removeIf(o -> o.getMaxOffset() <= o.getMinOffset());
        if (offsets.isEmpty()) {
            return List.of();
        }
        // Explicit synchronous pulls from each queue's first offset. The lite pull consumer this
        // replaces started a pull task per queue at assign(), before seek() could take effect; seek
        // then interrupted that task mid-request, which closed the client's channel and lost the
        // browse's own requests on it, or left the queue read from its end: a 500 or an empty
        // listing, seen in DlqConsoleTest under load. The pull consumer has no background tasks.
        @SuppressWarnings("deprecation")
        DefaultMQPullConsumer reader = new DefaultMQPullConsumer(DLQ_BROWSER_GROUP, credentials().rpcHook());
        reader.setNamesrvAddr(nameServer());
        reader.setInstanceName(RocketMQMessages.instanceName("dlq-browser"));
        try {
            reader.start();
            List<DeadLetter> letters = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BROWSE_TIMEOUT_MILLIS);
            for (Map.Entry<MessageQueue, TopicOffset> queue : offsets.entrySet()) {
                // Up to max from every queue, then the oldest max of them all.
                readQueue(reader, queue.getKey(), queue.getValue(), max, deadline, letters);
            }
            letters.sort(Comparator.comparingLong(DeadLetter::storeTimestamp).thenComparingInt(DeadLetter::queueId)
                    .thenComparingLong(DeadLetter::queueOffset));
            return letters.size() <= max ? letters : List.copyOf(letters.subList(0, max));
        } catch (MQClientException e) {
            throw new RocketMQAdminException("Cannot read " + dlq, e);
        } finally {
            reader.shutdown();
        }
    }

    /** Reads one queue from its first to its last message (up to {@code max}), or until the deadline. */
    @SuppressWarnings("deprecation")
    private static void readQueue(DefaultMQPullConsumer reader, MessageQueue queue, TopicOffset range, int max,
            long deadline, List<DeadLetter> letters) {
        long offset = range.getMinOffset();
        int read = 0;
        while (offset < range.getMaxOffset() && read < max) {
            if (System.nanoTime() > deadline) {
                LOG.browseStopped(queue.getTopic(), BROWSE_TIMEOUT_MILLIS, offset, queue.getQueueId(), range.getMaxOffset());
                return;
            }
            PullResult result;
            try {
                result = reader.pull(queue, "*", offset, Math.min(max - read, 32), BROWSE_PULL_TIMEOUT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RocketMQAdminException("Interrupted while reading " + queue.getTopic(), e);
            } catch (MQClientException | RemotingException | MQBrokerException e) {
                throw new RocketMQAdminException("Cannot read " + queue.getTopic() + " queue " + queue.getQueueId(), e);
            }
            if (result.getPullStatus() == PullStatus.FOUND) {
                for (MessageExt msg : result.getMsgFoundList()) {
                    if (read < max) {
                        letters.add(RocketMQMessages.deadLetter(msg));
                        read++;
                    }
                }
            }
            if (result.getNextBeginOffset() <= offset) {
                return; // nothing more to read here (the range shrank meanwhile)
            }
            offset = result.getNextBeginOffset();
        }
    }

    @Override
    public String redrive(String consumerGroup, DeadLetter entry, byte[] newBody) {
        org.apache.rocketmq.common.message.Message msg = RocketMQMessages.redrive(entry, consumerGroup, newBody);
        SendResult result;
        try {
            result = redriveProducer().send(msg);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RocketMQAdminException("Interrupted while re-driving " + entry.msgId(), e);
        } catch (Exception e) {
            throw new RocketMQAdminException("Cannot re-drive " + entry.msgId() + " to " + msg.getTopic(), e);
        }
        if (result.getSendStatus() != SendStatus.SEND_OK) {
            throw new RocketMQAdminException("Re-drive of " + entry.msgId() + " to " + msg.getTopic()
                    + ": broker answered " + result.getSendStatus(), null);
        }
        LOG.redrove(entry.msgId(), entry.keys(), entry.originTopic(), consumerGroup, result.getMsgId());
        return result.getMsgId();
    }

    private synchronized DefaultMQAdminExt admin() {
        if (admin == null) {
            DefaultMQAdminExt created = new DefaultMQAdminExt(credentials().rpcHook());
            created.setNamesrvAddr(nameServer());
            created.setInstanceName(RocketMQMessages.sharedInstanceName(nameServer(), credentials()));
            try {
                created.start();
            } catch (MQClientException e) {
                throw new RocketMQAdminException("Admin client failed to start against " + nameServer(), e);
            }
            admin = created;
        }
        return admin;
    }

    private synchronized DefaultMQProducer redriveProducer() {
        if (redriveProducer == null) {
            DefaultMQProducer created = RocketMQProducers.prepare(
                    new DefaultMQProducer(REDRIVE_PRODUCER_GROUP, credentials().rpcHook()), nameServer(),
                    RocketMQMessages.sharedInstanceName(nameServer(), credentials()));
            try {
                created.start();
            } catch (MQClientException e) {
                throw new RocketMQAdminException("Re-drive producer failed to start against " + nameServer(), e);
            }
            redriveProducer = created;
        }
        return redriveProducer;
    }

    private String nameServer() {
        return config.getOptionalValue(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, String.class)
                .orElseThrow(() -> new IllegalStateException("RocketMQAdmin needs "
                        + RocketMQConfigKeys.CONNECTOR_NAME_SERVER + " (set by Dev Services in dev and test mode)"));
    }

    private ClientCredentials credentials() {
        return ClientCredentials.of(config.getOptionalValue(RocketMQConfigKeys.CONNECTOR_ACCESS_KEY, String.class),
                config.getOptionalValue(RocketMQConfigKeys.CONNECTOR_SECRET_KEY, String.class), "RocketMQAdmin");
    }

    @PreDestroy
    synchronized void close() {
        if (redriveProducer != null) {
            redriveProducer.shutdown();
            redriveProducer = null;
        }
        if (admin != null) {
            admin.shutdown();
            admin = null;
        }
    }
}
