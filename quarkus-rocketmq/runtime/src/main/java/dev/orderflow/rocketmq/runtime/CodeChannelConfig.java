package dev.orderflow.rocketmq.runtime;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

import dev.orderflow.rocketmq.RocketMQConfigKeys;

/**
 * The configuration of a channel opened from code ({@link DefaultRocketMQChannels}): channel-level
 * attributes come from a map, anything else falls back to the connector-level
 * {@code mp.messaging.connector.smallrye-rocketmq.*} keys (e.g. the name server that Dev Services
 * or production configuration set), exactly as for a declared channel.
 */
final class CodeChannelConfig implements Config {

    private static final String CONNECTOR_PREFIX = "mp.messaging.connector." + RocketMQConfigKeys.CONNECTOR_NAME + ".";

    private final Map<String, String> attributes;
    private final Config global;

    CodeChannelConfig(Map<String, String> attributes, Config global) {
        this.attributes = Map.copyOf(attributes);
        this.global = global;
    }

    private Optional<String> raw(String name) {
        String value = attributes.get(name);
        return value != null ? Optional.of(value) : global.getOptionalValue(CONNECTOR_PREFIX + name, String.class);
    }

    @Override
    public <T> T getValue(String propertyName, Class<T> propertyType) {
        return getOptionalValue(propertyName, propertyType).orElseThrow(
                () -> new NoSuchElementException("channel attribute " + propertyName + " is not set"));
    }

    @Override
    public <T> Optional<T> getOptionalValue(String propertyName, Class<T> propertyType) {
        return raw(propertyName).map(value -> convert(value, propertyType));
    }

    private <T> T convert(String value, Class<T> type) {
        if (type == String.class) {
            return type.cast(value);
        }
        return global.getConverter(type)
                .orElseThrow(() -> new IllegalArgumentException("no converter for " + type.getName()))
                .convert(value);
    }

    @Override
    public ConfigValue getConfigValue(String propertyName) {
        return global.getConfigValue(attributes.containsKey(propertyName) ? propertyName : CONNECTOR_PREFIX + propertyName);
    }

    @Override
    public Iterable<String> getPropertyNames() {
        Set<String> names = new HashSet<>(attributes.keySet());
        for (String name : global.getPropertyNames()) {
            if (name.startsWith(CONNECTOR_PREFIX)) {
                names.add(name.substring(CONNECTOR_PREFIX.length()));
            }
        }
        return names;
    }

    @Override
    public Iterable<ConfigSource> getConfigSources() {
        return List.of();
    }

    @Override
    public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
        return global.getConverter(forType);
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        throw new IllegalArgumentException("a channel configuration from code cannot be unwrapped to " + type.getName());
    }
}
