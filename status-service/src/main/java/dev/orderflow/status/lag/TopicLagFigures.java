package dev.orderflow.status.lag;

/**
 * A group's lag on one topic.
 *
 * @param topic                      the topic (the group's {@code %RETRY%<group>} is one too)
 * @param behind                     messages stored but not yet consumed by the group
 * @param oldestUnconsumedAgeSeconds age of the oldest of them; null when nothing is behind
 */
public record TopicLagFigures(String topic, long behind, Double oldestUnconsumedAgeSeconds) {
}
