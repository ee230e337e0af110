package dev.orderflow.rocketmq;

/**
 * Names around dead-letter queues. A message the connector dead-letters is written to
 * {@code %DLQ%<group>} with its body, tag, keys and user properties intact, plus the properties
 * below, so that every DLQ entry says what failed and why.
 */
public final class RocketMQDeadLetters {

    /** Failure class: {@code format}, {@code business} (permanent) or {@code system} (retries exhausted). */
    public static final String FAILURE_CLASS = "DLQ_FAILURE_CLASS";
    /** What went wrong, for the operator (truncated to 1000 characters). */
    public static final String FAILURE_REASON = "DLQ_FAILURE_REASON";
    /** How many delivery attempts the message had. */
    public static final String ATTEMPTS = "DLQ_ATTEMPTS";
    /** When it was dead-lettered, epoch millis. */
    public static final String DEAD_LETTERED_AT = "DLQ_DEAD_LETTERED_AT";
    /** The topic the message was consumed from (RocketMQ's own property name). */
    public static final String ORIGIN_TOPIC = "DLQ_ORIGIN_TOPIC";
    /** The message id it had there (RocketMQ's own property name). */
    public static final String ORIGIN_MESSAGE_ID = "DLQ_ORIGIN_MESSAGE_ID";

    /** On a message re-driven from a DLQ: the message id it had in the DLQ (user property). */
    public static final String REDRIVEN_FROM = "REDRIVEN_FROM_DLQ_MSG_ID";

    /** Prefix of the properties that describe a failure; dropped when a message is re-driven. */
    public static final String FAILURE_PROPERTY_PREFIX = "DLQ_";

    /** Failure class of transient failures that exhausted their retries. */
    public static final String SYSTEM_CLASS = "system";

    private RocketMQDeadLetters() {
    }

    /** {@code %DLQ%<group>}. */
    public static String dlqTopic(String consumerGroup) {
        return "%DLQ%" + consumerGroup;
    }

    /** {@code %RETRY%<group>}: messages sent here are redelivered to that group only. */
    public static String retryTopic(String consumerGroup) {
        return "%RETRY%" + consumerGroup;
    }
}
