package dev.orderflow.status;

import java.util.List;
import java.util.Map;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.topic.TopicValidator;

import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.RocketMQDeadLetters;
import io.quarkus.test.common.DevServicesContext;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Creates the topics the status service reads on the Dev Services broker before the application
 * starts. A RocketMQ consumer learns the route of a topic that did not exist when it subscribed
 * only at its next name-server poll (every 30 s); in production the topics exist (order_topic,
 * order_result_topic) or appear with the first dead letter, where 30 s is harmless, but tests
 * would wait for it.
 */
public class StatusTopics implements QuarkusTestResourceLifecycleManager, DevServicesContext.ContextAware {

    /** Every %DLQ% a test may write to: the default required consumers' groups. */
    static final List<String> TOPICS = List.of(OrderMessaging.TOPIC, ConsumerReports.TOPIC, OrderOutcome.TOPIC,
            RocketMQDeadLetters.dlqTopic(OrderMessaging.INVENTORY_GROUP), RocketMQDeadLetters.dlqTopic(OrderMessaging.SMS_GROUP),
            RocketMQDeadLetters.dlqTopic(OrderMessaging.POINTS_GROUP));

    private String nameServer;

    @Override
    public void setIntegrationTestContext(DevServicesContext context) {
        nameServer = context.devServicesProperties().get(RocketMQConfigKeys.CONNECTOR_NAME_SERVER);
    }

    @Override
    public Map<String, String> start() {
        if (nameServer == null) {
            throw new IllegalStateException("Dev Services did not start RocketMQ: no " + RocketMQConfigKeys.CONNECTOR_NAME_SERVER);
        }
        DefaultMQProducer admin = new DefaultMQProducer("status_test_topic_creator");
        admin.setNamesrvAddr(nameServer);
        admin.setInstanceName("status-test-topic-creator-" + System.nanoTime());
        try {
            admin.start();
            for (String topic : TOPICS) {
                admin.createTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC, topic, 4, Map.of());
            }
        } catch (MQClientException e) {
            throw new IllegalStateException("Cannot create the status service's topics on " + nameServer, e);
        } finally {
            admin.shutdown();
        }
        return Map.of();
    }

    @Override
    public void stop() {
        // The Dev Services broker (and its topics) lives as long as the test JVM.
    }
}
