package dev.orderflow.rocketmq.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.RocketMQTransactionChecker;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.health.HealthReport;
import io.smallrye.reactive.messaging.providers.helpers.MultiUtils;
import io.smallrye.reactive.messaging.providers.impl.ConnectorConfig;

/**
 * The transactional channels of the application, one {@link TransactionalChannel} each.
 *
 * <p>They are created from the channels' configuration when the application starts, not by
 * SmallRye Reactive Messaging's wiring: a live producer must be in each transactional producer
 * group from the start, to answer check-backs for half messages a crashed instance left behind,
 * even before (or without) any send by this instance. When SmallRye does materialize such a
 * channel (it asks the connector for a subscriber), the connector hands out
 * {@link #refusingSubscriber}, which shares the same producer and nacks every emitted message.
 */
@ApplicationScoped
public class TransactionalChannels {

    private static final ConnectorLog LOG = ConnectorLog.of(TransactionalChannels.class);
    private static final String CONNECTOR_SUFFIX = ".connector";

    @Inject
    Config config;

    @Inject
    @Any
    Instance<RocketMQTransactionChecker> checkers;

    private final Map<String, TransactionalChannel> channels = new ConcurrentHashMap<>();

    /** Starts every configured transactional channel; fails the start when one has no checker. */
    void startConfiguredChannels(@Observes StartupEvent event) {
        for (String name : configuredTransactionalChannels()) {
            channel(name);
        }
    }

    /**
     * The running transactional channel {@code name}, started on first use.
     *
     * @throws IllegalArgumentException when {@code name} is not an outgoing {@code smallrye-rocketmq}
     *                                  channel configured {@code transactional=true}
     * @throws IllegalStateException    when no {@link RocketMQTransactionChecker} serves it
     */
    TransactionalChannel channel(String name) {
        TransactionalChannel existing = channels.get(name);
        if (existing != null) {
            return existing;
        }
        synchronized (channels) {
            // Not computeIfAbsent: starting a producer is slow and must not run under the map's bin lock.
            existing = channels.get(name);
            if (existing != null) {
                return existing;
            }
            RocketMQConnectorOutgoingConfiguration channelConfig = outgoingConfiguration(name);
            if (!channelConfig.getTransactional()) {
                throw new IllegalArgumentException("Channel " + name + " is not transactional: set mp.messaging.outgoing."
                        + name + ".transactional=true");
            }
            TransactionalChannel created = new TransactionalChannel(channelConfig, checkerFor(channelConfig));
            created.start();
            channels.put(name, created);
            return created;
        }
    }

    /**
     * The subscriber for a transactional channel that SmallRye wired to an {@code Emitter} or
     * {@code @Outgoing} method: each message is nacked, because a plain send would bypass the
     * local transaction. Starts the channel's producer if needed.
     */
    Flow.Subscriber<? extends Message<?>> refusingSubscriber(String name) {
        channel(name);
        IllegalStateException refusal = new IllegalStateException("Channel " + name + " is transactional: send "
                + "through RocketMQTransactions.execute, not through an Emitter or @Outgoing method");
        return MultiUtils.via(multi -> multi.onItem().transformToUniAndConcatenate(message -> {
            LOG.plainSendRefused(refusal.getMessage());
            return Uni.createFrom().completionStage(message.nack(refusal));
        }));
    }

    void reportReadiness(HealthReport.HealthReportBuilder builder) {
        channels.values().forEach(c -> c.reportReadiness(builder));
    }

    @PreDestroy
    void close() {
        channels.values().forEach(c -> {
            try {
                c.close();
            } catch (RuntimeException e) {
                LOG.transactionalShutdownFailed(e, c.channel());
            }
        });
        channels.clear();
    }

    private List<String> configuredTransactionalChannels() {
        TreeSet<String> names = new TreeSet<>();
        for (String key : config.getPropertyNames()) {
            if (!key.startsWith(ConnectorFactory.OUTGOING_PREFIX) || !key.endsWith(CONNECTOR_SUFFIX)) {
                continue;
            }
            String name = key.substring(ConnectorFactory.OUTGOING_PREFIX.length(), key.length() - CONNECTOR_SUFFIX.length());
            if (name.length() > 1 && name.startsWith("\"") && name.endsWith("\"")) {
                name = name.substring(1, name.length() - 1);
            }
            if (RocketMQConfigKeys.CONNECTOR_NAME.equals(config.getOptionalValue(key, String.class).orElse(null))
                    && outgoingConfiguration(name).getTransactional()) {
                names.add(name);
            }
        }
        return new ArrayList<>(names);
    }

    private RocketMQConnectorOutgoingConfiguration outgoingConfiguration(String name) {
        Optional<String> connector = config.getOptionalValue(ConnectorConfig.channelPrefix(ConnectorFactory.OUTGOING_PREFIX,
                name) + "connector", String.class);
        if (connector.isEmpty() || !RocketMQConfigKeys.CONNECTOR_NAME.equals(connector.get())) {
            throw new IllegalArgumentException("Channel " + name + " is not an outgoing " + RocketMQConfigKeys.CONNECTOR_NAME
                    + " channel: set mp.messaging.outgoing." + name + ".connector=" + RocketMQConfigKeys.CONNECTOR_NAME);
        }
        // The same view of the configuration SmallRye gives the connector: channel keys, then connector keys.
        return new RocketMQConnectorOutgoingConfiguration(new ConnectorConfig(ConnectorFactory.OUTGOING_PREFIX, config,
                name) {
        });
    }

    /** By {@code transaction-checker}, else {@code @Identifier(<channel>)}, else the only checker bean. */
    private RocketMQTransactionChecker checkerFor(RocketMQConnectorOutgoingConfiguration channelConfig) {
        String name = channelConfig.getChannel();
        Optional<String> configured = channelConfig.getTransactionChecker();
        if (configured.isPresent()) {
            Instance<RocketMQTransactionChecker> selected = checkers.select(Identifier.Literal.of(configured.get()));
            if (!selected.isResolvable()) {
                throw new IllegalStateException("Channel " + name + ": transaction-checker=" + configured.get()
                        + " but there is no single RocketMQTransactionChecker bean with @Identifier(\""
                        + configured.get() + "\")");
            }
            return selected.get();
        }
        Instance<RocketMQTransactionChecker> byChannel = checkers.select(Identifier.Literal.of(name));
        if (byChannel.isResolvable()) {
            return byChannel.get();
        }
        List<? extends Instance.Handle<RocketMQTransactionChecker>> all = checkers.handlesStream().toList();
        if (all.size() == 1) {
            return all.get(0).get();
        }
        throw new IllegalStateException("Channel " + name + " is transactional, so it needs a "
                + "RocketMQTransactionChecker to answer the broker's check-backs: " + (all.isEmpty()
                        ? "there is none. Add a bean implementing it (@Identifier(\"" + name + "\") if there are several)."
                        : "there are " + all.size() + " and none is @Identifier(\"" + name + "\"); set mp.messaging.outgoing."
                                + name + ".transaction-checker to the identifier of the one to use."));
    }
}
