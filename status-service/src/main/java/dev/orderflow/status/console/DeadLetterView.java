package dev.orderflow.status.console;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import dev.orderflow.status.messaging.DeadLetterParser;
import dev.orderflow.status.rest.ApiTime;
import dev.orderflow.status.service.DeadLetteredEvent;

/**
 * One entry of {@code GET /admin/dlq/{consumer}/messages}: what failed, why, when, how many
 * attempts, and whether the consumer has consumed the key since ({@code null}: unknown).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "dlqMessageId", "messageKey", "orderId", "eventType", "failureClass", "failureReason",
        "deadLetteredAt", "attempts", "body", "alreadyConsumed" })
public record DeadLetterView(String dlqMessageId, String messageKey, String orderId, String eventType,
        String failureClass, String failureReason,
        String deadLetteredAt,
        int attempts, String body, Boolean alreadyConsumed) {

    static DeadLetterView of(String consumer, String consumerGroup, DeadLetter letter, Boolean alreadyConsumed) {
        try {
            DeadLetteredEvent event = DeadLetterParser.parse(consumer, consumerGroup, letter);
            return new DeadLetterView(letter.msgId(), letter.key(), event.orderId(), event.eventType().tag(),
                    event.failureClass(), event.reason(), ApiTime.format(event.deadLetteredAt()), letter.attempts(),
                    letter.bodyAsString(), alreadyConsumed);
        } catch (IllegalArgumentException e) {
            // Names no order (no KEYS, unreadable body): still listed, so that it can be fixed and re-driven.
            return new DeadLetterView(letter.msgId(), letter.key(), null, null,
                    letter.failureClass() != null ? letter.failureClass() : RocketMQDeadLetters.SYSTEM_CLASS,
                    letter.failureReason(), ApiTime.format(Instant.ofEpochMilli(letter.storeTimestamp())), letter.attempts(),
                    letter.bodyAsString(), alreadyConsumed);
        }
    }
}
