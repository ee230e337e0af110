package dev.orderflow.sms;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

import dev.orderflow.order.events.OrderMessaging;

/**
 * Reads a consumer group's dead-letter queue ({@code %DLQ%<group>}) from its first offset with a
 * plain RocketMQ pull consumer of its own, without committing anything.
 */
public final class DeadLetterQueue {

    private DeadLetterQueue() {
    }

    /** The entries whose KEYS are {@code key}, reading for at most {@code timeout}. */
    public static List<Entry> entriesWithKey(String consumerGroup, String key, Duration timeout) throws Exception {
        DefaultLitePullConsumer reader = new DefaultLitePullConsumer("sms_test_dlq_reader_" + System.nanoTime());
        reader.setNamesrvAddr(OrderEventPublisher.nameServer());
        reader.setInstanceName("sms-test-dlq-reader-" + System.nanoTime());
        reader.setAutoCommit(false);
        reader.start();
        try {
            Collection<MessageQueue> queues = reader.fetchMessageQueues(OrderMessaging.deadLetterQueueOf(consumerGroup));
            reader.assign(queues);
            for (MessageQueue queue : queues) {
                reader.seek(queue, 0);
            }
            List<Entry> found = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (found.isEmpty() && System.nanoTime() < deadline) {
                for (MessageExt message : reader.poll(500)) {
                    if (key.equals(message.getKeys())) {
                        found.add(new Entry(message.getKeys(), message.getTags(),
                                new String(message.getBody(), StandardCharsets.UTF_8), message.getProperties()));
                    }
                }
            }
            return found;
        } finally {
            reader.shutdown();
        }
    }

    /** One dead-lettered message: body, tag and keys as published, plus the connector's DLQ properties. */
    public record Entry(String keys, String tags, String body, Map<String, String> properties) {
    }
}
