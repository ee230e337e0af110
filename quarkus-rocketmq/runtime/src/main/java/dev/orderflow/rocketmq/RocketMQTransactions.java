package dev.orderflow.rocketmq;

import java.util.concurrent.Callable;

import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Transactional sending: a half message and the application's local JTA transaction commit or
 * roll back together. Inject it and call {@link #execute} with a channel configured
 * {@code transactional=true}.
 *
 * <pre>{@code
 * Order order = transactions.execute("order-events",
 *         Message.of(event).addMetadata(OutgoingRocketMQMetadata.builder().withKeys(key).build()),
 *         () -> { order.persist(); return order; });
 * }</pre>
 */
public interface RocketMQTransactions {

    /**
     * Sends {@code message} as a half message to the channel's topic, then runs {@code localWork}
     * in a new JTA transaction on the calling thread, then commits the message if the transaction
     * committed or rolls it back if {@code localWork} threw or the transaction rolled back.
     *
     * <p>Must be called with no JTA transaction active.
     *
     * @return what {@code localWork} returned, once the transaction committed
     * @throws RocketMQSendException                when the half message could not be stored (nothing
     *                                              was written locally)
     * @throws RocketMQTransactionUnknownException when the local outcome is unclear; the broker's
     *                                              check-back resolves it
     * @throws RuntimeException                     what {@code localWork} threw (wrapped when checked); the
     *                                              message was rolled back and will never be visible
     */
    <T> T execute(String channel, Message<?> message, Callable<T> localWork);
}
