package dev.orderflow.rocketmq;

/** Configuration keys shared by the runtime and the deployment module. */
public final class RocketMQConfigKeys {

    /** The connector name, used as {@code mp.messaging.[incoming|outgoing].<channel>.connector}. */
    public static final String CONNECTOR_NAME = "smallrye-rocketmq";

    /** Connector-level name server address, set by Dev Services when it starts a broker. */
    public static final String CONNECTOR_NAME_SERVER = "mp.messaging.connector." + CONNECTOR_NAME + ".name-server";

    /** Connector-level access key: every channel's, and the one {@code RocketMQAdmin} signs with. */
    public static final String CONNECTOR_ACCESS_KEY = "mp.messaging.connector." + CONNECTOR_NAME + ".access-key";

    /** Connector-level secret key of {@link #CONNECTOR_ACCESS_KEY}. */
    public static final String CONNECTOR_SECRET_KEY = "mp.messaging.connector." + CONNECTOR_NAME + ".secret-key";

    private RocketMQConfigKeys() {
    }
}
