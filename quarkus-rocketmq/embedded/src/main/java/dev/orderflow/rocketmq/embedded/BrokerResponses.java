package dev.orderflow.rocketmq.embedded;

import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;

/** What a broker answered, read from the exception a RocketMQ client threw for it (for tests of refusals). */
public final class BrokerResponses {

    private BrokerResponses() {
    }

    /**
     * The broker's response code among {@code failure}'s causes (e.g. {@code ResponseCode.NO_PERMISSION}),
     * or -1 when no cause carries one: the client wraps the broker's answer differently per request
     * kind (an {@link MQBrokerException}, or an {@link MQClientException} with the code).
     */
    public static int codeOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof MQBrokerException broker) {
                return broker.getResponseCode();
            }
            if (t instanceof MQClientException client && client.getResponseCode() > 0) {
                return client.getResponseCode();
            }
        }
        return -1;
    }
}
