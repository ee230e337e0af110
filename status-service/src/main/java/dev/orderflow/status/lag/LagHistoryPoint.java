package dev.orderflow.status.lag;

import java.time.Instant;

/**
 * One past sample of a group, for {@code history} in GET /lag.
 *
 * @param at                         when it was measured
 * @param behind                     messages behind over all topics
 * @param oldestUnconsumedAgeSeconds age of the oldest unconsumed message; null when nothing is behind
 * @param dlqDepth                   messages in the group's dead-letter queue
 */
public record LagHistoryPoint(Instant at, long behind, Double oldestUnconsumedAgeSeconds, long dlqDepth) {
}
