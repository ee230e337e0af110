package dev.orderflow.rocketmq;

import java.util.Map;

import org.eclipse.microprofile.reactive.messaging.Message;

import io.smallrye.mutiny.Multi;

/**
 * Incoming channels opened from code, for topics known only at run time (for example one per
 * consumer group's {@code %DLQ%} topic, as a configured list of groups names them). Such a channel
 * is the connector's own: the same source as a declared channel, with its acknowledgement after the
 * application's answer, redelivery, {@code failure-strategy}, health, metrics and graceful stop at
 * shutdown. Inject it as a bean.
 */
public interface RocketMQChannels {

    /**
     * Opens incoming channel {@code channel}. Its attributes are {@code attributes} (the names of
     * {@code mp.messaging.incoming.<channel>.*}); any attribute not given comes from the
     * connector-level {@code mp.messaging.connector.smallrye-rocketmq.*} keys, as for a declared
     * channel (the name server, credentials). Nothing is fetched before the stream is subscribed to.
     *
     * @throws IllegalArgumentException when a channel of that name is declared in the configuration,
     *                                  was opened before, or an attribute is invalid
     */
    Multi<Message<?>> openIncoming(String channel, Map<String, String> attributes);
}
