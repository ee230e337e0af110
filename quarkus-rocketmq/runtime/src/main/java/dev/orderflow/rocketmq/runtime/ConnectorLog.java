package dev.orderflow.rocketmq.runtime;

import java.lang.invoke.MethodHandles;
import java.util.List;

import org.jboss.logging.BasicLogger;
import org.jboss.logging.Logger;
import org.jboss.logging.annotations.Cause;
import org.jboss.logging.annotations.LogMessage;
import org.jboss.logging.annotations.Message;
import org.jboss.logging.annotations.MessageLogger;

/**
 * The connector's log messages, each with an id ({@code RMQ0001} …) that operators can search and
 * alert on. Each class logs under its own category ({@link #of}); debug lines stay untyped.
 */
@MessageLogger(projectCode = "RMQ", length = 4)
interface ConnectorLog extends BasicLogger {

    static ConnectorLog of(Class<?> category) {
        return Logger.getMessageLogger(MethodHandles.lookup(), ConnectorLog.class, category.getName());
    }

    // Incoming channels

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 1, value = "RocketMQ channel %s consuming %s (%s) as group %s, %s, from %s")
    void consuming(String channel, String topic, String tags, String group, String mode, String nameServer);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 2, value = "RocketMQ channel %s stopped")
    void sourceStopped(String channel);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 3, value = "Channel %s: %s ignored: batches are combined only with %s")
    void batchSettingsIgnored(String channel, String settings, String needs);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 4, value = "Channel %s: %d message(s) %s dropped after attempt %d (failure-strategy=ignore; %s: %s)")
    void dropped(String channel, int count, List<String> keys, int attempt, String failureClass, String reason);

    @LogMessage(level = Logger.Level.ERROR)
    @Message(id = 5, value = "Channel %s stopped (failure-strategy=fail): %s. Nothing more is consumed until a restart; "
            + "the message(s) stay uncommitted and are delivered again then")
    void halted(String channel, String why);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 6, value = "Channel %s: cannot send %s back for redelivery; redelivering the whole batch")
    void sendBackFailed(@Cause Throwable cause, String channel, String messageId);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 7, value = "Channel %s: the application no longer consumes and the source was not closed; "
            + "giving the message(s) back for redelivery")
    void abandonedWithoutClose(String channel);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 8, value = "Channel %s: %d delivery(ies) still unfinished after %d ms; they are not acknowledged "
            + "and will be redelivered")
    void unfinishedAtShutdown(String channel, int unfinished, long timeoutMillis);

    // Dead letters

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 9, value = "Channel %s: DLQ write of %s answered %s; redelivering")
    void deadLetterRefused(String channel, String messageId, Object status);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 10, value = "Channel %s: %d message(s) %s dead-lettered to %s (%s: %s)")
    void deadLettered(String channel, int count, List<String> keys, String dlq, String failureClass, String reason);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 11, value = "Channel %s: cannot write to %s; the message(s) will be redelivered")
    void deadLetterFailed(@Cause Throwable cause, String channel, String dlq);

    // Outgoing channels

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 12, value = "RocketMQ channel %s sending to %s (%s) as group %s via %s")
    void sending(String channel, String topic, String mode, String group, String nameServer);

    @LogMessage(level = Logger.Level.ERROR)
    @Message(id = 13, value = "Channel %s: the outgoing stream failed")
    void outgoingStreamFailed(@Cause Throwable cause, String channel);

    // Transactional channels

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 14, value = "RocketMQ channel %s sending transactionally to %s as group %s via %s (check-backs: %s)")
    void sendingTransactionally(String channel, String topic, String group, String nameServer, String checker);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 15, value = "Channel %s: could not register producer group %s with the brokers of %s yet; check-backs "
            + "reach this instance after its first send or heartbeat")
    void producerGroupNotRegisteredYet(String channel, String group, String topic);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 16, value = "Channel %s: could not register producer group %s with the brokers of %s (%s); check-backs "
            + "reach this instance once the name server is reachable and it has sent or heartbeated")
    void producerGroupNotRegistered(String channel, String group, String topic, String reason);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 17, value = "Channel %s: checker answered null for transaction %s (keys %s); treating as UNKNOWN")
    void checkerAnsweredNull(String channel, String transactionId, List<String> keys);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 18, value = "Channel %s: checker failed for transaction %s (keys %s); answering UNKNOWN, the broker "
            + "asks again")
    void checkerFailed(@Cause Throwable cause, String channel, String transactionId, List<String> keys);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 19, value = "%s")
    void plainSendRefused(String refusal);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 20, value = "Channel %s: transactional producer did not shut down cleanly")
    void transactionalShutdownFailed(@Cause Throwable cause, String channel);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 21, value = "Commit of a local transaction ended unclearly; its half message is left to the check-back")
    void commitUnclear(@Cause Throwable cause);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 22, value = "Rollback after a failed local work failed")
    void rollbackFailed(@Cause Throwable cause);

    // Administration

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 23, value = "Reading %s stopped after %d ms at offset %d of queue %d (up to %d)")
    void browseStopped(String topic, long millis, long offset, int queueId, long maxOffset);

    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 24, value = "Re-drove DLQ message %s (keys %s, origin %s) to group %s as %s")
    void redrove(String messageId, List<String> keys, String originTopic, String group, String newMessageId);

    @LogMessage(level = Logger.Level.WARN)
    @Message(id = 25, value = "RocketMQ headers stay %s: RocketMQ was initialized before %s=%s could take effect")
    void headerEncodingUnchanged(Object current, String property, String wanted);
}
