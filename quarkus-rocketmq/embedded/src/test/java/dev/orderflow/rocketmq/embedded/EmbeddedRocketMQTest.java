package dev.orderflow.rocketmq.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Starts the real name server and broker in this JVM and round-trips messages through them (binary
 * headers). One broker for the class, stopped by the last test: a stop takes 10-15 s.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedRocketMQTest {

    private static EmbeddedRocketMQ rocketMQ;

    @BeforeAll
    static void start() {
        rocketMQ = EmbeddedRocketMQ.start(EmbeddedRocketMQ.Options.forTests(
                Path.of("target", "embedded-test-" + System.nanoTime())));
    }

    @AfterAll
    static void stop() {
        rocketMQ.close();
    }

    @Test
    @Order(1)
    void startsSendsAndConsumes() throws Exception {
        assertThat(rocketMQ.isRunning()).isTrue();
        assertThat(rocketMQ.nameServerAddress()).startsWith("127.0.0.1:");
        // This JVM sets no serialize type, so the broker and the clients below speak binary headers.
        assertThat(RemotingCommand.getSerializeTypeConfigInThisServer()).isEqualTo(SerializeType.ROCKETMQ);

        List<String> received = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("embedded_test_group");
        consumer.setNamesrvAddr(rocketMQ.nameServerAddress());
        consumer.subscribe("embedded_test_topic", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        DefaultMQProducer producer = new DefaultMQProducer("embedded_test_producer");
        producer.setNamesrvAddr(rocketMQ.nameServerAddress());
        producer.start();
        consumer.start();
        try {
            SendResult result = producer.send(new Message("embedded_test_topic", "tag",
                    "hello".getBytes(StandardCharsets.UTF_8)));
            assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (received.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(received).containsExactly("hello");

            rocketMQ.createTopics(List.of("embedded_created_a", "embedded_created_b"), 3);
            assertThat(producer.fetchPublishMessageQueues("embedded_created_a")).hasSize(3);
            assertThat(producer.fetchPublishMessageQueues("embedded_created_b")).hasSize(3);
        } finally {
            consumer.shutdown();
            producer.shutdown();
        }
    }

    /** RocketMQ's broker returns at most 32 messages a pull by default, whatever the consumer asks. */
    @Test
    @Order(2)
    @SuppressWarnings("deprecation") // DefaultMQPullConsumer: the one client that makes a single pull of a chosen size
    void onePullReturnsAsManyMessagesAsTheConsumerAsksForBeyondRocketMQsDefault32() throws Exception {
        rocketMQ.createTopics(List.of("embedded_pull_topic"), 1);
        DefaultMQProducer producer = new DefaultMQProducer("embedded_pull_producer");
        producer.setNamesrvAddr(rocketMQ.nameServerAddress());
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer("embedded_pull_group");
        consumer.setNamesrvAddr(rocketMQ.nameServerAddress());
        producer.start();
        consumer.start();
        try {
            List<Message> messages = IntStream.range(0, 100).mapToObj(i -> new Message("embedded_pull_topic", "tag",
                    ("m" + i).getBytes(StandardCharsets.UTF_8))).toList();
            assertThat(producer.send(messages).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            MessageQueue queue = consumer.fetchSubscribeMessageQueues("embedded_pull_topic").iterator().next();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (consumer.maxOffset(queue) < messages.size() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            PullResult pull = consumer.pull(queue, "*", 0, 128);

            assertThat(pull.getPullStatus()).isEqualTo(PullStatus.FOUND);
            assertThat(pull.getMsgFoundList()).hasSize(messages.size());
            int last = messages.size() - 1;
            assertThat(new String(pull.getMsgFoundList().get(last).getBody(), StandardCharsets.UTF_8))
                    .isEqualTo("m" + last);
        } finally {
            consumer.shutdown();
            producer.shutdown();
        }
    }

    @Test
    @Order(3)
    void closeStopsTheBrokerAndTheNameServer() {
        String nameServer = rocketMQ.nameServerAddress();
        String broker = rocketMQ.brokerAddress();

        rocketMQ.close();

        assertThat(rocketMQ.isRunning()).isFalse();
        assertThat(listens(nameServer)).as("name server %s", nameServer).isFalse();
        assertThat(listens(broker)).as("broker %s", broker).isFalse();
        rocketMQ.close(); // again: nothing to do
    }

    @Test
    void deleteDataDirRemovesTheFolderAndEverythingInIt() throws Exception {
        Path dataDir = Path.of("target", "delete-data-dir-" + System.nanoTime()).toAbsolutePath();
        Files.createDirectories(dataDir.resolve("store/commitlog"));
        Files.writeString(dataDir.resolve("store/commitlog/00000000000000000000"), "data");

        EmbeddedRocketMQ.deleteDataDir(dataDir);
        assertThat(dataDir).doesNotExist();
        assertThat(dataDir.getParent()).isDirectory();
        // Nothing there: nothing to do.
        EmbeddedRocketMQ.deleteDataDir(dataDir);
    }

    private static boolean listens(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(hostAndPort.substring(0, colon),
                    Integer.parseInt(hostAndPort.substring(colon + 1))), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
