package dev.orderflow.rocketmq;

import java.util.List;

/**
 * Operations primitives for consumer groups: lag, and the dead-letter queue (browse, re-drive).
 * Talks to the name server configured as {@code mp.messaging.connector.smallrye-rocketmq.name-server}
 * (set by Dev Services in dev and test mode). The admin client starts on first use and stops
 * with the application.
 */
public interface RocketMQAdmin {

    /**
     * How far {@code consumerGroup} is behind on every topic it consumes (from the offsets the
     * broker holds, and the subscriptions of its online consumers), its retry backlog and the
     * size of its DLQ.
     *
     * @throws RocketMQAdminException when the broker cannot be asked
     */
    GroupLag lag(String consumerGroup);

    /**
     * The topic where the broker parks transactional half messages it checked back
     * {@code transactionCheckMax} times without an answer; they need a manual resume.
     */
    String HALF_MESSAGES_PARKED_TOPIC = "TRANS_CHECK_MAX_TIME_TOPIC";

    /**
     * Messages stored in {@code topic} (over all its queues, from the oldest still stored to the
     * newest), whoever consumed them; 0 when the topic does not exist. For topics nobody consumes,
     * such as {@link #HALF_MESSAGES_PARKED_TOPIC} or a DLQ.
     *
     * @throws RocketMQAdminException when the broker cannot be asked
     */
    long topicDepth(String topic);

    /**
     * Up to {@code max} messages of {@code %DLQ%<consumerGroup>}, oldest first per queue. Reading
     * does not consume them: the DLQ keeps every entry. An empty list when the group never
     * dead-lettered anything.
     *
     * @throws RocketMQAdminException when the broker cannot be asked
     */
    List<DeadLetter> browseDeadLetters(String consumerGroup, int max);

    /**
     * Makes {@code consumerGroup}, and no other group of the same topic, consume {@code entry}
     * again with a fresh attempt count: a new message goes to {@code %RETRY%<consumerGroup>}
     * (which only that group reads) marked with its origin topic, so the consumer sees it as a
     * message of the origin topic with reconsume count 0. Keys, tag and user properties are kept;
     * the {@code DLQ_*} failure properties are dropped and {@link RocketMQDeadLetters#REDRIVEN_FROM}
     * names the DLQ message id. The DLQ entry itself stays (RocketMQ cannot delete a message).
     *
     * <p>The group's consumers learn about a retry topic that did not exist yet at their next
     * route refresh (up to 30 s by default), so a first re-drive can take that long to arrive.
     *
     * @param newBody the corrected body, or null to send the original body
     * @return the message id of the re-driven message
     * @throws RocketMQAdminException when the broker did not store the message
     */
    String redrive(String consumerGroup, DeadLetter entry, byte[] newBody);
}
