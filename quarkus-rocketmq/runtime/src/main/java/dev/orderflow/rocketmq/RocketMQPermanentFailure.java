package dev.orderflow.rocketmq;

/**
 * Marks a processing failure that retrying cannot fix (unparseable body, missing field,
 * unknown code). Nacking an incoming message with this exception anywhere in the cause chain
 * sends that one message straight to the group's dead-letter queue ({@code %DLQ%<group>})
 * after this single attempt, so it never blocks the messages behind it.
 *
 * <p>Any other nack cause is transient: the message is redelivered with back-off and goes to
 * the DLQ only after {@code max-reconsume-times} attempts.
 */
public class RocketMQPermanentFailure extends RuntimeException {

    private final String failureClass;

    /**
     * @param failureClass a short classification kept with the DLQ entry, e.g. {@code format}
     *                     or {@code business}
     * @param reason       what is wrong with the message, for the operator
     */
    public RocketMQPermanentFailure(String failureClass, String reason) {
        super(reason);
        this.failureClass = failureClass;
    }

    public RocketMQPermanentFailure(String failureClass, String reason, Throwable cause) {
        super(reason, cause);
        this.failureClass = failureClass;
    }

    public String failureClass() {
        return failureClass;
    }

    /** The permanent failure in {@code t}'s cause chain, or null when the failure is transient. */
    public static RocketMQPermanentFailure find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof RocketMQPermanentFailure permanent) {
                return permanent;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
