package dev.orderflow.rocketmq.runtime;

import java.util.function.UnaryOperator;

import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.jboss.logging.Logger;

import io.quarkus.runtime.annotations.Recorder;

/**
 * Makes RocketMQ's binary header encoding ({@code ROCKETMQ}) the default of the application's
 * clients instead of the client library's JSON default. RocketMQ encodes the header of every
 * request and response (send, pull, end-transaction) with its JVM-wide serialize type; with JSON each
 * header goes through fastjson both ways. Measured in the suite (docs/performance.md, step 12): the
 * broker's sync sends per second +30 %, its CPU per order lower. A broker decodes either encoding, so
 * clients and brokers need not agree.
 * <p>
 * RocketMQ's own switches win: the system property {@code rocketmq.serialize.type} or the
 * environment variable {@code ROCKETMQ_SERIALIZE_TYPE} ({@code JSON} or {@code ROCKETMQ}). RocketMQ
 * reads them once, when its {@code RemotingCommand} class is initialized, so this runs before any
 * channel creates a client.
 */
@Recorder
public class RemotingEncodingRecorder {

    private static final Logger LOG = Logger.getLogger(RemotingEncodingRecorder.class);

    /** The serialize type this extension chooses when the JVM has none set. */
    public static final SerializeType DEFAULT = SerializeType.ROCKETMQ;

    public void applyDefault() {
        applyDefault(System::getProperty, System::getenv, System::setProperty);
        SerializeType effective = RemotingCommand.getSerializeTypeConfigInThisServer();
        LOG.debugf("RocketMQ remoting encoding: %s", effective);
    }

    /**
     * Sets {@code rocketmq.serialize.type} to {@link #DEFAULT} unless the property or RocketMQ's
     * environment variable already chooses one.
     *
     * @return the value set, or {@code null} when the JVM's own choice was kept
     */
    static String applyDefault(UnaryOperator<String> properties, UnaryOperator<String> environment,
            PropertySetter setter) {
        // The same lookup as RocketMQ's: the property, else the environment variable; blank = none.
        String chosen = properties.apply(RemotingCommand.SERIALIZE_TYPE_PROPERTY);
        if (chosen == null) {
            chosen = environment.apply(RemotingCommand.SERIALIZE_TYPE_ENV);
        }
        if (chosen == null || chosen.isBlank()) {
            setter.set(RemotingCommand.SERIALIZE_TYPE_PROPERTY, DEFAULT.name());
            return DEFAULT.name();
        }
        return null;
    }

    @FunctionalInterface
    interface PropertySetter {
        void set(String key, String value);
    }
}
