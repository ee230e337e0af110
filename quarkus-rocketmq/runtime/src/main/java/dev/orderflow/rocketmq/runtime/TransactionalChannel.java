package dev.orderflow.rocketmq.runtime;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

import dev.orderflow.rocketmq.RocketMQSendException;
import dev.orderflow.rocketmq.RocketMQTransactionChecker;
import dev.orderflow.rocketmq.TransactionCheck;
import dev.orderflow.rocketmq.TransactionResolution;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.smallrye.reactive.messaging.health.HealthReport;

/**
 * One outgoing channel configured {@code transactional=true}: its {@link TransactionMQProducer}
 * and the listener that runs the local side of a send and answers the broker's check-backs.
 */
final class TransactionalChannel implements TransactionListener {

    private static final ConnectorLog LOG = ConnectorLog.of(TransactionalChannel.class);

    private final RocketMQConnectorOutgoingConfiguration config;
    private final String channel;
    private final String topic;
    /** Read once: the generated configuration looks a value up in every config source on each call. */
    private final String defaultTag;
    private final String producerGroup;
    private final RocketMQTransactionChecker checker;
    private final ChannelMetrics metrics;
    private final TransactionMetrics transactionMetrics;
    private final NameServerProbe probe;
    private final ClientCredentials credentials;
    private final TransactionMQProducer producer;

    /** The local side and the send's start time, handed through the producer as its {@code arg}. */
    private record PendingSend(LocalTransaction local, long startNanos) {
    }

    TransactionalChannel(RocketMQConnectorOutgoingConfiguration config, RocketMQTransactionChecker checker) {
        this.config = config;
        this.channel = config.getChannel();
        this.topic = config.getTopic().orElse(channel);
        this.defaultTag = config.getTag().orElse(null);
        this.producerGroup = config.getProducerGroup().orElse(channel);
        this.checker = checker;
        this.metrics = new ChannelMetrics(channel);
        this.transactionMetrics = new TransactionMetrics(channel);
        this.probe = new NameServerProbe(config.getNameServer(), config.getHealthTimeout());
        this.credentials = ClientCredentials.of(config.getAccessKey(), config.getSecretKey(), "Channel " + channel);
        this.producer = RocketMQProducers.prepare(new TransactionMQProducer(producerGroup, credentials.rpcHook()),
                config.getNameServer(),
                // Its own client, not the shared one: the broker's check-backs arrive on the client's
                // connection and callback threads, which the shared client gives to every channel's pulls.
                config.getInstanceName().orElse(RocketMQMessages.instanceName(channel)));
        producer.setSendMsgTimeout(config.getSendTimeout());
        producer.setRetryTimesWhenSendFailed(config.getRetries());
        // The producer shuts this executor down with itself.
        producer.setExecutorService(checkExecutor(channel, config.getCheckThreads()));
        producer.setTransactionListener(this);
    }

    private static ExecutorService checkExecutor(String channel, int threads) {
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "rocketmq-tx-check-" + channel + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        return Executors.newFixedThreadPool(threads, factory);
    }

    void start() {
        try {
            producer.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("Channel " + channel + ": transactional producer failed to start", e);
        }
        try {
            credentials.checkUsedBy(producer.getDefaultMQProducerImpl().getMqClientFactory(), "Channel " + channel);
        } catch (IllegalStateException e) {
            producer.shutdown();
            throw e;
        }
        registerWithBrokers();
        LOG.sendingTransactionally(channel, topic, producerGroup, config.getNameServer(), checker.getClass().getName());
    }

    /**
     * Makes the brokers of the topic know this producer now. The client heartbeats only to brokers
     * it learnt from the routes of topics it sends to, so an instance that has not sent yet (e.g.
     * one restarted after a crash) would be unknown to the broker, which then finds no live
     * producer of the group to send check-backs to ("channel table is empty"), for up to the
     * first send plus a heartbeat interval. Seen in the integration tests.
     */
    private void registerWithBrokers() {
        MQClientInstance client = producer.getDefaultMQProducerImpl().getMqClientFactory();
        try {
            boolean routed = client.updateTopicRouteInfoFromNameServer(topic);
            if (!routed) {
                // Topic not created yet (auto-created on first send): the brokers of the default topic will take it.
                routed = client.updateTopicRouteInfoFromNameServer(topic, true, producer);
            }
            if (routed && client.sendHeartbeatToAllBrokerWithLock()) {
                return;
            }
            LOG.producerGroupNotRegisteredYet(channel, producerGroup, topic);
        } catch (RuntimeException e) {
            // The client wraps an unreachable name server in IllegalStateException. The application must
            // still start (sends fail with RocketMQSendException until the cluster is back), so warn only.
            LOG.producerGroupNotRegistered(channel, producerGroup, topic, e.getMessage());
        }
    }

    String channel() {
        return channel;
    }

    String topic() {
        return topic;
    }

    String defaultTag() {
        return defaultTag;
    }

    String producerGroup() {
        return producerGroup;
    }

    /**
     * Stores {@code msg} as a half message, runs {@code local} on this thread once it is stored,
     * and ends the transaction with the state {@code local} reported.
     *
     * @return the state the transaction was ended with
     * @throws RocketMQSendException when the half message was not stored ({@code local} did not run)
     */
    LocalTransactionState send(Message msg, LocalTransaction local) {
        long start = System.nanoTime();
        TransactionSendResult result;
        try {
            result = producer.sendMessageInTransaction(msg, new PendingSend(local, start));
        } catch (MQClientException e) {
            metrics.sendFailed();
            throw new RocketMQSendException("Channel " + channel + ": half message to " + msg.getTopic()
                    + " failed: " + e.getMessage(), e);
        }
        if (result.getSendStatus() != SendStatus.SEND_OK) {
            // The producer rolled the half message back without running the local work.
            metrics.sendFailed();
            throw new RocketMQSendException("Channel " + channel + ": broker answered " + result.getSendStatus()
                    + " for half message " + result.getMsgId());
        }
        LocalTransactionState state = result.getLocalTransactionState();
        switch (state) {
            case COMMIT_MESSAGE -> transactionMetrics.committed();
            case ROLLBACK_MESSAGE -> transactionMetrics.rolledBack();
            case UNKNOW -> transactionMetrics.unknown();
        }
        return state;
    }

    @Override
    public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
        PendingSend pending = (PendingSend) arg;
        metrics.sent(pending.startNanos());
        return pending.local().run();
    }

    /** The broker asks about a half message whose end it did not receive: the checker decides, from shared data. */
    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt msg) {
        TransactionCheck check = RocketMQMessages.transactionCheck(msg, channel, producerGroup);
        TransactionResolution resolution;
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            resolution = checker.check(check);
            if (resolution == null) {
                LOG.checkerAnsweredNull(channel, check.transactionId(), check.keys());
                resolution = TransactionResolution.UNKNOWN;
            }
        } catch (RuntimeException e) {
            LOG.checkerFailed(e, channel, check.transactionId(), check.keys());
            resolution = TransactionResolution.UNKNOWN;
        } finally {
            requestContext.terminate();
        }
        LOG.debugf("Channel %s: check-back for transaction %s (keys %s) answered %s", channel, check.transactionId(),
                check.keys(), resolution);
        transactionMetrics.checked(resolution);
        return switch (resolution) {
            case COMMIT -> LocalTransactionState.COMMIT_MESSAGE;
            case ROLLBACK -> LocalTransactionState.ROLLBACK_MESSAGE;
            case UNKNOWN -> LocalTransactionState.UNKNOW;
        };
    }

    void reportReadiness(HealthReport.HealthReportBuilder builder) {
        if (!config.getHealthEnabled()) {
            return;
        }
        if (probe.reachable() == null) {
            builder.add(channel, false, "name server unreachable: " + probe.describe());
        } else {
            builder.add(channel, true);
        }
    }

    void close() {
        producer.shutdown();
        metrics.close();
        transactionMetrics.close();
    }
}
