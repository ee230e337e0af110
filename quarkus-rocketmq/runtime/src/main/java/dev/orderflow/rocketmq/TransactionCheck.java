package dev.orderflow.rocketmq;

import java.util.List;
import java.util.Map;

/**
 * A half message the broker asks about, handed to a {@link RocketMQTransactionChecker}.
 *
 * @param channel       the outgoing channel the message was sent through
 * @param producerGroup the transactional producer group
 * @param topic         the message topic
 * @param tag           the message tag
 * @param keys          the message KEYS, as set by the sender
 * @param properties    user properties
 * @param body          the message body
 * @param bornTimestamp when the half message was created, epoch millis (age decides ROLLBACK
 *                      for "no row yet" answers)
 * @param transactionId the broker's transaction id
 */
public record TransactionCheck(
        String channel,
        String producerGroup,
        String topic,
        String tag,
        List<String> keys,
        Map<String, String> properties,
        byte[] body,
        long bornTimestamp,
        String transactionId) {

    /** The first key, or null. */
    public String key() {
        return keys.isEmpty() ? null : keys.get(0);
    }
}
