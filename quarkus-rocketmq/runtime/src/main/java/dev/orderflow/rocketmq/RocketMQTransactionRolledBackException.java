package dev.orderflow.rocketmq;

/**
 * The local transaction of {@link RocketMQTransactions#execute} rolled back for a reason that is
 * not an unchecked exception of the application's work: the work threw a checked exception, or
 * the transaction manager rolled back at commit (e.g. the transaction was marked rollback-only or
 * a constraint failed at flush). The half message was rolled back and will never be visible.
 * The cause says why.
 */
public class RocketMQTransactionRolledBackException extends RuntimeException {

    public RocketMQTransactionRolledBackException(String message, Throwable cause) {
        super(message, cause);
    }
}
