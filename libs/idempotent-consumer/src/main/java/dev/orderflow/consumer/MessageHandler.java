package dev.orderflow.consumer;

/**
 * The business change for one message. Runs inside the pipeline's JTA transaction, together with
 * the consume_record insert: write through the injected {@code EntityManager} (or Panache), which
 * joins that transaction; do not start or commit transactions yourself. Never called twice for a
 * committed (group, key).
 *
 * <p>Return {@link Outcome#done()} or {@link Outcome#rejected(String)}; throw
 * {@link BusinessFailure} for a permanent domain failure; any other exception is a transient
 * {@link FailureClass#SYSTEM} failure and the message is redelivered later.
 */
@FunctionalInterface
public interface MessageHandler<T> {

    Outcome handle(T payload, ConsumeContext context) throws Exception;
}
