package dev.orderflow.rocketmq;

/** A message could not be stored by the broker (unreachable, timeout, or a non-OK send status). */
public class RocketMQSendException extends RuntimeException {

    public RocketMQSendException(String message) {
        super(message);
    }

    public RocketMQSendException(String message, Throwable cause) {
        super(message, cause);
    }
}
