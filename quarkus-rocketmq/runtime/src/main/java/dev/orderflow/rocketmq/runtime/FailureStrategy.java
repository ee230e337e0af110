package dev.orderflow.rocketmq.runtime;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What an incoming channel does with a message the application failed for good: a nack with a
 * {@code RocketMQPermanentFailure}, or a transient failure on its last attempt
 * ({@code max-reconsume-times} redeliveries spent). The channel attribute {@code failure-strategy}.
 */
enum FailureStrategy {

    /** Written to {@code %DLQ%<group>} with its failure, then committed; if the write fails, redelivered. */
    DEAD_LETTER_QUEUE("dead-letter-queue"),
    /** Committed without a copy anywhere; a warning names it and its failure. */
    IGNORE("ignore"),
    /**
     * The channel stops: it fetches nothing more, reports itself dead and not ready, and leaves the
     * message uncommitted, so the group's next consumer (after a restart) receives it again.
     */
    FAIL("fail");

    private final String attributeValue;

    FailureStrategy(String attributeValue) {
        this.attributeValue = attributeValue;
    }

    static FailureStrategy of(String value, String channel) {
        for (FailureStrategy strategy : values()) {
            if (strategy.attributeValue.equals(value)) {
                return strategy;
            }
        }
        throw new IllegalArgumentException("Channel " + channel + ": failure-strategy must be one of "
                + Arrays.stream(values()).map(s -> "'" + s.attributeValue + "'").collect(Collectors.joining(", "))
                + ", not '" + value + "'");
    }

    @Override
    public String toString() {
        return attributeValue;
    }
}
