package dev.orderflow.rocketmq.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

import dev.orderflow.rocketmq.RocketMQChannels;
import dev.orderflow.rocketmq.RocketMQConfigKeys;
import io.smallrye.mutiny.Multi;

/** Opens channels from code through the connector, which then runs and stops them with its declared ones. */
@ApplicationScoped
public class DefaultRocketMQChannels implements RocketMQChannels {

    private final RocketMQConnector connector;
    private final Config config;
    private final Set<String> opened = ConcurrentHashMap.newKeySet();

    @Inject
    public DefaultRocketMQChannels(@Connector(RocketMQConfigKeys.CONNECTOR_NAME) RocketMQConnector connector,
            Config config) {
        this.connector = connector;
        this.config = config;
    }

    @Override
    public Multi<Message<?>> openIncoming(String channel, Map<String, String> attributes) {
        for (String direction : new String[] { "incoming", "outgoing" }) {
            if (config.getOptionalValue("mp.messaging." + direction + "." + channel + ".connector", String.class)
                    .isPresent()) {
                throw new IllegalArgumentException("Channel " + channel + " is declared in the configuration ("
                        + direction + "); a channel opened from code needs a name of its own");
            }
        }
        if (!opened.add(channel)) {
            throw new IllegalArgumentException("Channel " + channel + " was opened already");
        }
        Map<String, String> all = new HashMap<>(attributes);
        all.put(ConnectorFactory.CHANNEL_NAME_ATTRIBUTE, channel);
        all.put(ConnectorFactory.CONNECTOR_ATTRIBUTE, RocketMQConfigKeys.CONNECTOR_NAME);
        try {
            return connector.openSource(new CodeChannelConfig(all, config));
        } catch (RuntimeException e) {
            opened.remove(channel);
            throw e;
        }
    }
}
