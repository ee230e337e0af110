package dev.orderflow.rocketmq;

/**
 * Answers the broker's check-back for half messages whose outcome it did not receive (the
 * sender crashed, or the commit was lost). Implement one per transactional channel as a CDI
 * bean with {@code @io.smallrye.common.annotation.Identifier("<channel>")}; a single unqualified
 * bean serves every transactional channel.
 *
 * <p>Typical answer: "does my row for this message exist?" yes → COMMIT; no, and the half
 * message is older than the longest local transaction → ROLLBACK; otherwise UNKNOWN.
 * Any live instance of the producer group may be asked, so answer from shared state (the
 * database), never from memory. Called on a RocketMQ thread with a request context active.
 */
public interface RocketMQTransactionChecker {

    TransactionResolution check(TransactionCheck check);
}
