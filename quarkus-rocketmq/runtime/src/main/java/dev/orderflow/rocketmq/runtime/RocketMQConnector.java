package dev.orderflow.rocketmq.runtime;

import static io.smallrye.reactive.messaging.annotations.ConnectorAttribute.Direction.INCOMING;
import static io.smallrye.reactive.messaging.annotations.ConnectorAttribute.Direction.INCOMING_AND_OUTGOING;
import static io.smallrye.reactive.messaging.annotations.ConnectorAttribute.Direction.OUTGOING;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rocketmq.RocketMQConfigKeys;
import io.smallrye.mutiny.Multi;
import io.smallrye.reactive.messaging.annotations.ConnectorAttribute;
import io.smallrye.reactive.messaging.connector.InboundConnector;
import io.smallrye.reactive.messaging.connector.OutboundConnector;
import io.smallrye.reactive.messaging.health.HealthReport;
import io.smallrye.reactive.messaging.health.HealthReporter;

/**
 * The SmallRye Reactive Messaging connector {@code smallrye-rocketmq}, on the Apache RocketMQ
 * remoting client. Attributes are declared once here; the annotation processor generates the
 * typed configuration classes and the documentation from them.
 */
@ApplicationScoped
@Connector(RocketMQConfigKeys.CONNECTOR_NAME)
// Both directions
@ConnectorAttribute(name = "name-server", type = "string", direction = INCOMING_AND_OUTGOING, mandatory = true,
        description = "Name server address(es), `host:port[;host:port]`. In dev and test mode, when unset, Dev Services "
                + "start an in-process broker and set it.")
@ConnectorAttribute(name = "topic", type = "string", direction = INCOMING_AND_OUTGOING,
        description = "The topic. Default: the channel name.")
@ConnectorAttribute(name = "instance-name", type = "string", direction = INCOMING_AND_OUTGOING,
        description = "Client instance name. Default: one per process and name server, shared by every channel (one "
                + "set of connections and client threads) except transactional ones, which get their own; the groups "
                + "in one instance must differ. Give a channel its own name to make it a separate client.")
@ConnectorAttribute(name = "access-key", type = "string", direction = INCOMING_AND_OUTGOING,
        description = "Access key (user name) the channel's clients sign every request with, for brokers that run with "
                + "access control (RocketMQ ACL 2.0); set it with `secret-key`, or neither (unsigned requests, which such "
                + "a broker refuses). Set once for all channels as `mp.messaging.connector.smallrye-rocketmq.access-key`; "
                + "`RocketMQAdmin` signs with that connector-level value. Channels with other credentials get client "
                + "instances of their own.")
@ConnectorAttribute(name = "secret-key", type = "string", direction = INCOMING_AND_OUTGOING,
        description = "Secret key of `access-key`. It signs requests and is never sent or logged; give it from a secret "
                + "(e.g. an environment variable), not from a file in the application.")
@ConnectorAttribute(name = "health-enabled", type = "boolean", direction = INCOMING_AND_OUTGOING, defaultValue = "true",
        description = "Whether the channel reports readiness (client started and name server reachable).")
@ConnectorAttribute(name = "health-timeout", type = "int", direction = INCOMING_AND_OUTGOING, defaultValue = "1000",
        description = "Milliseconds to wait for the name server when checking readiness.")
// Incoming
@ConnectorAttribute(name = "consumer-group", type = "string", direction = INCOMING,
        description = "Consumer group. Default: the channel name.")
@ConnectorAttribute(name = "tag-expression", type = "string", direction = INCOMING, defaultValue = "*",
        description = "Tag filter, e.g. `create || cancel`.")
@ConnectorAttribute(name = "consume-mode", type = "string", direction = INCOMING, defaultValue = "concurrently",
        description = "`concurrently` (any order, highest throughput) or `orderly` (one message at a time per queue; "
                + "failures retry in place).")
@ConnectorAttribute(name = "consume-threads", type = "int", direction = INCOMING, defaultValue = "4",
        description = "Consumer threads. Each waits for the application to acknowledge what it handed over, so this "
                + "bounds the messages in flight (times `batch-size` in batch mode); with `batch-concurrency`, the "
                + "deliveries they hold wait to be combined into batches.")
@ConnectorAttribute(name = "batch", type = "boolean", direction = INCOMING, defaultValue = "false",
        description = "Deliver lists of up to `batch-size` payloads (`Message<List<String>>`) instead of one message "
                + "at a time; the batch is acknowledged or failed as a whole, or element by element when nacked with a "
                + "`RocketMQBatchFailure`.")
@ConnectorAttribute(name = "batch-size", type = "int", direction = INCOMING, defaultValue = "16",
        description = "Maximum messages per batch when `batch=true`.")
@ConnectorAttribute(name = "batch-concurrency", type = "int", direction = INCOMING, defaultValue = "0",
        description = "With `batch=true` in `concurrently` mode: how many batches the application is given at once. "
                + "Deliveries that consumer threads hold meanwhile (up to `consume-threads` of them) are combined into "
                + "the next batch, up to `batch-size` messages, so a backlog is consumed in full batches although each "
                + "fetch brings only a few messages. Set it below `consume-threads`. 0 (default): no combining, each "
                + "batch is what one fetch of one queue brought. Set where batches are not combined (`batch=false`, "
                + "orderly), it does nothing and the channel logs a warning at start.")
@ConnectorAttribute(name = "batch-backlog-concurrency", type = "int", direction = INCOMING, defaultValue = "0",
        description = "With `batch-concurrency`: how many batches the application is given at once while full batches "
                + "wait (a backlog); a batch beyond `batch-concurrency` goes only when it is full. Under a backlog the "
                + "batches then overlap, while at a low rate they stay `batch-concurrency` at a time. 0 (default): the "
                + "same as `batch-concurrency`; otherwise at least that, and refused where batches are not combined.")
@ConnectorAttribute(name = "batch-linger", type = "long", direction = INCOMING, defaultValue = "0",
        description = "With `batch-concurrency`: milliseconds a batch that is not full waits for more deliveries, from "
                + "its oldest delivery's arrival, before it is handed over. At a low rate the deliveries of several "
                + "pulls then share one batch (one transaction) instead of each paying the per-batch cost, at the "
                + "price of up to that much latency. 0 (default): a free slot takes what waits at once. Set where batches "
                + "are not combined, it does nothing and the channel logs a warning at start.")
@ConnectorAttribute(name = "max-reconsume-times", type = "int", direction = INCOMING, defaultValue = "16",
        description = "Redeliveries after a transient failure before the message fails for good (see `failure-strategy`).")
@ConnectorAttribute(name = "failure-strategy", type = "string", direction = INCOMING, defaultValue = "dead-letter-queue",
        description = "What becomes of a message that failed for good (a nack with `RocketMQPermanentFailure`, or "
                + "its last attempt): `dead-letter-queue` writes it to `%DLQ%<group>` with its failure and commits it "
                + "(redelivered if the write fails); `ignore` commits it with a warning and counts it in "
                + "`rocketmq.messages.ignored`; `fail` stops the channel: nothing more is fetched, liveness and readiness "
                + "go down, and the message stays uncommitted, so that the group's next consumer (after a restart) "
                + "receives it again.")
@ConnectorAttribute(name = "retry-delay-level", type = "int", direction = INCOMING, defaultValue = "0",
        description = "Broker delay level for a redelivery (concurrently). 0 lets the broker back off by attempt "
                + "(level 3 + attempts).")
@ConnectorAttribute(name = "orderly-retry-delay", type = "long", direction = INCOMING, defaultValue = "1000",
        description = "Milliseconds a queue is suspended before an orderly retry in place.")
@ConnectorAttribute(name = "processing-timeout", type = "long", direction = INCOMING, defaultValue = "60000",
        description = "Milliseconds the connector waits for the application's ack or nack; past it the message is "
                + "treated as a transient failure and redelivered.")
@ConnectorAttribute(name = "consume-from", type = "string", direction = INCOMING, defaultValue = "last",
        description = "Where a new consumer group starts: `last` or `first` offset.")
@ConnectorAttribute(name = "pull-batch-size", type = "int", direction = INCOMING, defaultValue = "32",
        description = "Messages fetched from a queue per pull (raised to `batch-size` for a batch channel). The broker "
                + "returns at most its `maxTransferCountOnMessageInMemory` a pull: 32 unless configured, 256 on the "
                + "suite's brokers.")
@ConnectorAttribute(name = "pull-interval", type = "long", direction = INCOMING, defaultValue = "0",
        description = "Milliseconds a queue waits after a pull before the next one. 0 (default): at once, a pull per "
                + "arriving message when they trickle in. A few milliseconds let messages gather, so that a busy "
                + "group pulls less often and gets fuller batches, at the price of that much latency.")
@ConnectorAttribute(name = "pull-threshold-for-queue", type = "int", direction = INCOMING,
        description = "Messages a queue may hold in this client (pulled, not yet consumed) before its pulls pause "
                + "(RocketMQ's `pullThresholdForQueue`, 1-65535; unset: RocketMQ's 1000). A group that falls behind "
                + "keeps its backlog in the broker beyond this, not in the heap (a held message of the suite, with its "
                + "properties and addresses, took about 2 KB of heap). The gauge `rocketmq.messages.cached` shows "
                + "what a channel holds. Set this or `pull-threshold-for-topic`, not both.")
@ConnectorAttribute(name = "pull-threshold-for-topic", type = "int", direction = INCOMING,
        description = "Messages this channel may hold in this client in all (RocketMQ's `pullThresholdForTopic`, "
                + "1-6553500): at every rebalance RocketMQ divides it by the queues this instance then reads (the "
                + "topic's and its retry topic's) and uses that as `pull-threshold-for-queue`. The bound then stays "
                + "the same whatever the queue count or the number of instances sharing it. Set this or "
                + "`pull-threshold-for-queue`, not both.")
@ConnectorAttribute(name = "shutdown-timeout", type = "long", direction = INCOMING, defaultValue = "10000",
        description = "Milliseconds to let in-flight messages finish at shutdown. Unfinished messages are not "
                + "acknowledged and are redelivered.")
// Outgoing
@ConnectorAttribute(name = "producer-group", type = "string", direction = OUTGOING,
        description = "Producer group. Default: the channel name. For transactional channels, every instance of the "
                + "application must use the same group so that any of them answers check-backs.")
@ConnectorAttribute(name = "tag", type = "string", direction = OUTGOING,
        description = "Default tag of sent messages (metadata may override).")
@ConnectorAttribute(name = "send-mode", type = "string", direction = OUTGOING, defaultValue = "sync",
        description = "`sync`: the message completes when the broker answered SEND_OK and fails otherwise. `async`: "
                + "the same, from the send callback, without blocking a thread. `oneway`: fire and forget; the "
                + "message completes at once and may be lost (at-most-once: logs, metrics).")
@ConnectorAttribute(name = "send-timeout", type = "int", direction = OUTGOING, defaultValue = "3000",
        description = "Milliseconds to wait for the broker on a send.")
@ConnectorAttribute(name = "retries", type = "int", direction = OUTGOING, defaultValue = "2",
        description = "Send retries on another broker after a failed sync send.")
@ConnectorAttribute(name = "transactional", type = "boolean", direction = OUTGOING, defaultValue = "false",
        description = "Use a transactional producer; send through `RocketMQTransactions`.")
@ConnectorAttribute(name = "transaction-checker", type = "string", direction = OUTGOING,
        description = "`@Identifier` of the `RocketMQTransactionChecker` bean answering check-backs. Default: the "
                + "bean identified by the channel name, else the only checker bean.")
@ConnectorAttribute(name = "check-threads", type = "int", direction = OUTGOING, defaultValue = "2",
        description = "Threads answering transaction check-backs.")
public class RocketMQConnector implements InboundConnector, OutboundConnector, HealthReporter {

    private static final ConnectorLog LOG = ConnectorLog.of(RocketMQConnector.class);

    @Inject
    ObjectMapper objectMapper;

    @Inject
    TransactionalChannels transactionalChannels;

    private final List<RocketMQSource> sources = new CopyOnWriteArrayList<>();
    private final Map<String, RocketMQSink> sinks = new ConcurrentHashMap<>();

    @Override
    public Flow.Publisher<? extends Message<?>> getPublisher(Config config) {
        return openSource(config);
    }

    /** Creates the source of an incoming channel, declared or opened from code, and runs it with the others. */
    Multi<Message<?>> openSource(Config config) {
        RocketMQSource source = new RocketMQSource(new RocketMQConnectorIncomingConfiguration(config));
        sources.add(source);
        return source.stream();
    }

    @Override
    public Flow.Subscriber<? extends Message<?>> getSubscriber(Config config) {
        RocketMQConnectorOutgoingConfiguration outgoing = new RocketMQConnectorOutgoingConfiguration(config);
        if (outgoing.getTransactional()) {
            // One producer per transactional group: a second, plain one would receive check-backs it cannot answer.
            return transactionalChannels.refusingSubscriber(outgoing.getChannel());
        }
        RocketMQSink sink = new RocketMQSink(outgoing, objectMapper);
        sinks.put(sink.channel(), sink);
        return sink.subscriber();
    }

    /** The sink of an outgoing channel, or null when the channel is not a RocketMQ channel. */
    public RocketMQSink sink(String channel) {
        return sinks.get(channel);
    }

    /** Every incoming channel's source, e.g. to find consumer groups. */
    public List<RocketMQSource> sources() {
        return List.copyOf(sources);
    }

    @Override
    public HealthReport getReadiness() {
        HealthReport.HealthReportBuilder builder = HealthReport.builder();
        sources.forEach(s -> s.reportReadiness(builder));
        sinks.values().forEach(s -> s.reportReadiness(builder));
        transactionalChannels.reportReadiness(builder);
        return builder.build();
    }

    @Override
    public HealthReport getLiveness() {
        HealthReport.HealthReportBuilder builder = HealthReport.builder();
        sources.forEach(s -> s.reportLiveness(builder));
        return builder.build();
    }

    /** Stops consumers first (they drain), then producers (a drained consumer may still send). */
    public void terminate(
            @Observes(notifyObserver = Reception.IF_EXISTS) @Priority(50) @BeforeDestroyed(ApplicationScoped.class) Object event) {
        LOG.debugf("Stopping %d RocketMQ source(s) and %d sink(s)", sources.size(), sinks.size());
        sources.forEach(RocketMQSource::close);
        sinks.values().forEach(RocketMQSink::close);
    }
}
