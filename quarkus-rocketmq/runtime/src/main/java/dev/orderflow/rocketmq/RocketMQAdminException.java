package dev.orderflow.rocketmq;

/** An administrative request to the name server or broker failed (unreachable, refused, timed out). */
public class RocketMQAdminException extends RuntimeException {

    public RocketMQAdminException(String message, Throwable cause) {
        super(message, cause);
    }
}
