package dev.orderflow.rocketmq;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One message in a consumer group's dead-letter queue {@code %DLQ%<group>}, with what the
 * connector recorded about its failure (see {@link RocketMQDeadLetters}). Select one by
 * {@link #msgId()} or by queue and offset and hand it to {@link RocketMQAdmin#redrive}.
 *
 * @param msgId           the message id in the DLQ
 * @param brokerName      the broker holding the DLQ queue
 * @param queueId         the DLQ queue
 * @param queueOffset     the offset within the DLQ queue
 * @param storeTimestamp  when the DLQ stored it, epoch millis
 * @param originTopic     the topic it was consumed from
 * @param originMessageId its message id there
 * @param failureClass    {@code format}, {@code business} or {@code system}; null when the broker
 *                        dead-lettered it by itself
 * @param failureReason   what went wrong, for the operator; null when unknown
 * @param attempts        delivery attempts before it was dead-lettered (0 when unknown)
 * @param keys            the message KEYS
 * @param tag             the tag
 * @param properties      the user properties, including the {@code DLQ_*} failure properties
 * @param body            the body
 */
public record DeadLetter(
        String msgId,
        String brokerName,
        int queueId,
        long queueOffset,
        long storeTimestamp,
        String originTopic,
        String originMessageId,
        String failureClass,
        String failureReason,
        int attempts,
        List<String> keys,
        String tag,
        Map<String, String> properties,
        byte[] body) {

    /** The body as UTF-8 text. */
    public String bodyAsString() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The first key, or null. */
    public String key() {
        return keys.isEmpty() ? null : keys.get(0);
    }
}
