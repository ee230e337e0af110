package dev.orderflow.rocketmq;

import java.util.List;
import java.util.Map;

/**
 * How far a consumer group is behind, as the broker sees it. Consumers commit offsets
 * periodically (every 5 s by default), so a group that just caught up may still show a few
 * messages behind for that long.
 *
 * @param consumerGroup             the group
 * @param messagesBehind            messages stored but not yet consumed, over every queue the group
 *                                  reads, including its retry topic
 * @param oldestUnconsumedAgeMillis age of the oldest message the group has not consumed yet (now
 *                                  minus its store time), 0 when nothing is behind
 * @param retryBacklog              messages waiting in {@code %RETRY%<group>} for redelivery
 * @param deadLetters               messages in {@code %DLQ%<group>} (the DLQ is never consumed, so
 *                                  this counts every dead letter still stored)
 * @param queues                    one row per queue; empty when the broker knows no offsets and no
 *                                  online consumer for the group
 * @param oldestUnconsumedAgeMillisByTopic the oldest unconsumed age per topic, for every topic with
 *                                  messages behind (a topic caught up is absent)
 * @param consumersOnline           consumer clients of the group connected to the broker now; 0 when
 *                                  none is online (lag then only grows)
 */
public record GroupLag(
        String consumerGroup,
        long messagesBehind,
        long oldestUnconsumedAgeMillis,
        long retryBacklog,
        long deadLetters,
        List<QueueLag> queues,
        Map<String, Long> oldestUnconsumedAgeMillisByTopic,
        int consumersOnline) {

    public GroupLag {
        queues = List.copyOf(queues);
        oldestUnconsumedAgeMillisByTopic = Map.copyOf(oldestUnconsumedAgeMillisByTopic);
    }
}
