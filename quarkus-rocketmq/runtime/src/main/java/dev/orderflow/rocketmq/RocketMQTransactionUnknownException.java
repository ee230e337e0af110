package dev.orderflow.rocketmq;

/**
 * The local transaction's outcome is unclear (for example the database connection dropped during
 * commit). The half message stays pending; the broker's check-back decides from the data.
 */
public class RocketMQTransactionUnknownException extends RuntimeException {

    public RocketMQTransactionUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
