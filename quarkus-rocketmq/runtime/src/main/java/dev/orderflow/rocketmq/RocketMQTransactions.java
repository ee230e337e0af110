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
 *
 * <h2>Declaring a transactional channel</h2>
 * Configuration alone is enough; no {@code @Channel Emitter} or {@code @Outgoing} method is needed:
 *
 * <pre>
 * mp.messaging.outgoing.order-events.connector=smallrye-rocketmq
 * mp.messaging.outgoing.order-events.topic=order_topic
 * mp.messaging.outgoing.order-events.transactional=true
 * mp.messaging.outgoing.order-events.producer-group=order_tx_producer
 * </pre>
 *
 * The extension starts the channel's {@code TransactionMQProducer} when the application starts,
 * from the channel's configuration, independently of SmallRye Reactive Messaging's wiring: an
 * instance must be live in the producer group, and known to the brokers, from the start to answer
 * the broker's check-backs for half messages that a crashed instance left behind. (SmallRye 4.33
 * does ask the connector for a subscriber of a configured outgoing channel that has no upstream,
 * but leaves it unconnected and logs SRMSG00207 "has no upstream"; that warning is expected for a
 * configuration-only transactional channel.) Every instance of
 * the application must use the same {@code producer-group}. Check-backs are answered by the
 * {@link RocketMQTransactionChecker} bean named by {@code transaction-checker}, else the one with
 * {@code @Identifier("<channel>")}, else the only checker bean; with none, the application fails
 * to start. A message emitted to a transactional channel through an {@code Emitter} is refused
 * (nacked): a plain send would bypass the transaction.
 */
public interface RocketMQTransactions {

    /**
     * Sends {@code message} as a half message to the channel's topic, then runs {@code localWork}
     * in a new JTA transaction on the calling thread, then commits the message if the transaction
     * committed or rolls it back if {@code localWork} threw or the transaction rolled back.
     *
     * <p>Must be called with no JTA transaction active. The message's sharding key is ignored: the
     * broker picks the queue of a transactional message.
     *
     * @param channel   an outgoing {@code smallrye-rocketmq} channel configured {@code transactional=true}
     * @param message   payload and {@link OutgoingRocketMQMetadata} (keys, tag, properties)
     * @param localWork the local work, e.g. inserting the rows the message announces
     * @return what {@code localWork} returned, once the transaction committed
     * @throws IllegalStateException                 when a JTA transaction is active on this thread
     * @throws IllegalArgumentException              when {@code channel} is not a transactional
     *                                               {@code smallrye-rocketmq} channel, or when
     *                                               {@code message} is a batch
     *                                               ({@link OutgoingRocketMQBatchMetadata}: RocketMQ
     *                                               has no transactional batches; nothing is sent)
     * @throws RocketMQSendException                 when the half message could not be stored
     *                                               ({@code localWork} did not run)
     * @throws RocketMQTransactionUnknownException   when the local outcome is unclear; the broker's
     *                                               check-back resolves it
     * @throws RocketMQTransactionRolledBackException when the transaction rolled back at commit or
     *                                               {@code localWork} threw a checked exception
     *                                               (the cause); the message will never be visible
     * @throws RuntimeException                      any unchecked exception {@code localWork} threw,
     *                                               as is; the message will never be visible
     */
    <T> T execute(String channel, Message<?> message, Callable<T> localWork);

    /**
     * Like {@link #execute}, for local work that commits its changes itself: for example a group
     * commit, where one transaction, begun and committed by the work, holds the rows of several
     * concurrent messages. Sends the half message, then calls {@code committingWork} on the calling thread,
     * then commits the message if it returned (its changes must be committed by then) and rolls it
     * back if it threw. When the work cannot tell whether its commit took effect (the connection
     * dropped during commit), it throws {@link RocketMQTransactionUnknownException}: the half
     * message is left to the check-back, which must then find the committed changes, if any.
     *
     * <p>No JTA transaction is begun; an active one on the calling thread is not involved.
     *
     * @return what {@code committingWork} returned
     * @throws IllegalArgumentException              as for {@link #execute}
     * @throws RocketMQSendException                 when the half message could not be stored
     *                                               ({@code committingWork} did not run)
     * @throws RocketMQTransactionUnknownException   when the work threw it (its cause kept), or the
     *                                               producer did not run the work
     * @throws RocketMQTransactionRolledBackException when the work threw a checked exception (the cause)
     * @throws RuntimeException                      any other unchecked exception of the work, as is;
     *                                               the message will never be visible
     */
    <T> T executeCommitting(String channel, Message<?> message, Callable<T> committingWork);
}
