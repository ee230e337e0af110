package dev.orderflow.status.lag;

import java.util.List;

import dev.orderflow.rocketmq.GroupLag;

/**
 * The latest figures of one consumer group and its recent history.
 *
 * @param group                      the consumer group
 * @param behind                     messages behind over all its topics (retry topic included)
 * @param oldestUnconsumedAgeSeconds age of the oldest unconsumed message; null when nothing is behind
 * @param retryDepth                 messages waiting in {@code %RETRY%<group>}
 * @param dlqDepth                   messages in {@code %DLQ%<group>}
 * @param consumersOnline            consumer clients of the group connected now
 * @param topics                     per topic, sorted by name
 * @param history                    the last samples, oldest first (the latest included)
 */
public record GroupLagFigures(String group, long behind, Double oldestUnconsumedAgeSeconds, long retryDepth,
        long dlqDepth, int consumersOnline, List<TopicLagFigures> topics, List<LagHistoryPoint> history) {

    public GroupLagFigures {
        topics = List.copyOf(topics);
        history = List.copyOf(history);
    }

    /** The figures of one measurement by the extension's admin client; history still empty. */
    static GroupLagFigures of(GroupLag lag) {
        List<TopicLagFigures> topics = lag.queues().stream()
                .map(q -> q.topic())
                .distinct()
                .sorted()
                .map(topic -> new TopicLagFigures(topic,
                        lag.queues().stream().filter(q -> q.topic().equals(topic)).mapToLong(q -> q.behind()).sum(),
                        seconds(lag.oldestUnconsumedAgeMillisByTopic().getOrDefault(topic, 0L))))
                .toList();
        return new GroupLagFigures(lag.consumerGroup(), lag.messagesBehind(), seconds(lag.oldestUnconsumedAgeMillis()),
                lag.retryBacklog(), lag.deadLetters(), lag.consumersOnline(), topics, List.of());
    }

    GroupLagFigures withHistory(List<LagHistoryPoint> points) {
        return new GroupLagFigures(group, behind, oldestUnconsumedAgeSeconds, retryDepth, dlqDepth, consumersOnline,
                topics, points);
    }

    /** 0 ms means "nothing behind" in {@link GroupLag}: shown as null, not as an age of zero. */
    private static Double seconds(long millis) {
        return millis <= 0 ? null : millis / 1000.0;
    }
}
