package dev.orderflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.concurrent.Callable;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

import dev.orderflow.rocketmq.embedded.BrokerResponses;

/**
 * Plain RocketMQ clients against the running suite's broker, as a stranger on the network (or a
 * compromised service) would use them: each request is answered by the broker itself.
 */
final class BrokerAccess {

    private final String nameServer;

    BrokerAccess(String nameServer) {
        this.nameServer = nameServer;
    }

    /** Signs as {@code accessKey}; null: unsigned. */
    static RPCHook as(String accessKey, String secretKey) {
        return accessKey == null ? null : new AclClientRPCHook(new SessionCredentials(accessKey, secretKey));
    }

    /** Sends one message to {@code topic}, signed by {@code hook}. */
    void send(RPCHook hook, String topic) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("e2e_broker_access_" + System.nanoTime(), hook);
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName("e2e-access-" + System.nanoTime());
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        try {
            producer.send(new Message(topic, "create", "E2E-INTRUDER:create", "{}".getBytes(StandardCharsets.UTF_8)));
        } finally {
            producer.shutdown();
        }
    }

    /** Pulls the first queue of {@code topic} as consumer group {@code group}, signed by {@code hook}. */
    @SuppressWarnings("deprecation") // the plain pull consumer: one request, no rebalance
    void pull(RPCHook hook, String group, String topic) throws Exception {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(group, hook);
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName("e2e-access-" + System.nanoTime());
        consumer.start();
        try {
            Collection<MessageQueue> queues = consumer.fetchSubscribeMessageQueues(topic);
            consumer.pull(queues.iterator().next(), "*", 0, 1);
        } finally {
            consumer.shutdown();
        }
    }

    /** The call was refused by the broker: NO_PERMISSION. */
    static void assertRefused(Callable<?> call) {
        Throwable refusal = catchThrowable(call::call);
        assertThat(refusal).as("the broker's refusal").isNotNull();
        assertThat(BrokerResponses.codeOf(refusal)).as("response code of %s", refusal)
                .isEqualTo(ResponseCode.NO_PERMISSION);
    }
}
