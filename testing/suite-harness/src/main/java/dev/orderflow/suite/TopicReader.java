package dev.orderflow.suite;

import java.util.Set;
import java.util.function.Consumer;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.exception.RemotingException;

/**
 * Reads every message a topic holds, each queue from offset 0, with the plain pull consumer: it
 * reads from any offset and keeps no group offsets, so reading changes nothing the suite's
 * consumer groups see. For checks after a run (dead-letter queues, the benchmark's report times).
 */
public final class TopicReader implements AutoCloseable {

    /** Messages asked for per pull (the broker's default most per pull from memory). */
    private static final int PULL_SIZE = 32;

    @SuppressWarnings("deprecation") // the plain pull consumer reads a queue from any offset without a group offset
    private final DefaultMQPullConsumer consumer;

    /**
     * @param group   a group name of the reader's own; nothing is committed under it
     * @param rpcHook signs its requests on a broker with access control; null on one without
     */
    @SuppressWarnings("deprecation")
    public TopicReader(String nameServerAddress, String group, RPCHook rpcHook) {
        consumer = new DefaultMQPullConsumer(group, rpcHook);
        consumer.setNamesrvAddr(nameServerAddress);
        consumer.setInstanceName(group + "-" + ProcessHandle.current().pid());
        try {
            consumer.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("Topic reader " + group + " did not start", e);
        }
    }

    /** Hands every message of {@code topic} to {@code action}, queue by queue in offset order; a topic without a route has none. */
    @SuppressWarnings("deprecation")
    public void forEach(String topic, Consumer<MessageExt> action) {
        Set<MessageQueue> queues;
        try {
            queues = consumer.fetchSubscribeMessageQueues(topic);
        } catch (MQClientException e) {
            return; // no route yet: nothing was ever sent to it
        }
        for (MessageQueue queue : queues) {
            long offset = 0;
            while (true) {
                PullResult result;
                try {
                    result = consumer.pull(queue, "*", offset, PULL_SIZE);
                } catch (MQClientException | RemotingException | MQBrokerException e) {
                    throw new IllegalStateException("Cannot read " + queue, e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while reading " + queue, e);
                }
                if (result.getPullStatus() != PullStatus.FOUND) {
                    break;
                }
                result.getMsgFoundList().forEach(action);
                offset = result.getNextBeginOffset();
            }
        }
    }

    @Override
    @SuppressWarnings("deprecation")
    public void close() {
        consumer.shutdown();
    }
}
