package dev.orderflow.status.lag;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;
import dev.orderflow.status.lag.ParkingRocketMQ.InjectParkingRocketMQ;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * What only a broker of its own can show ({@link ParkingRocketMQ}, real, in this JVM): a half
 * message nobody answers is parked in TRANS_CHECK_MAX_TIME_TOPIC and counted by
 * {@code orderflow_half_messages_parked}; with the name server gone GET /lag keeps the last figures
 * and says {@code "stale": true}, and recovers when it is back.
 */
@QuarkusTest
@TestProfile(LagStaleTest.OwnBroker.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LagStaleTest {

    /** A profile of its own: the application talks to {@link ParkingRocketMQ}, not the shared broker. */
    public static class OwnBroker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orderflow.status.dead-letters.enabled", "false");
        }

        @Override
        public java.util.List<TestResourceEntry> testResources() {
            return java.util.List.of(new TestResourceEntry(ParkingRocketMQ.class));
        }
    }

    @InjectParkingRocketMQ
    EmbeddedRocketMQ rocketMQ;

    @Test
    @Order(1)
    void aHalfMessageNobodyAnswersIsCountedOnceParked() throws Exception {
        TransactionMQProducer producer = new TransactionMQProducer("status_test_unanswered_tx");
        producer.setNamesrvAddr(rocketMQ.nameServerAddress());
        producer.setInstanceName("status-test-unanswered-tx-" + System.nanoTime());
        // Neither commit nor rollback, ever: the broker checks back, then parks the half message.
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.UNKNOW;
            }
        });
        producer.start();
        try {
            assertThat(producer.sendMessageInTransaction(new Message("status_test_tx_topic", "create", "ORDER-PARKED",
                    "never decided".getBytes(StandardCharsets.UTF_8)), null).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(given().get("/q/metrics").asString())
                    .contains("orderflow_half_messages_parked 1.0"));
        } finally {
            producer.shutdown();
        }
    }

    @Test
    @Order(2)
    void withoutNameServerTheLastFiguresAreShownAsStale() {
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/lag").statusCode() == 200);
        rocketMQ.stopNameServer();
        try {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().get("/lag").then()
                    .statusCode(200).body("stale", org.hamcrest.Matchers.equalTo(true)));
            JsonPath stale = given().get("/lag").jsonPath();
            assertThat(stale.getList("groups.group")).contains("inventory_group", "status_group");
            // The figures stay those of the last round that succeeded: measuredAt no longer moves.
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() ->
                    stale.getString("measuredAt").equals(given().get("/lag").jsonPath().getString("measuredAt")));
            assertThat(given().get("/q/metrics").asString()).contains("orderflow_half_messages_parked 1.0");
        } finally {
            rocketMQ.restartNameServer();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(given().get("/lag").jsonPath()
                .getMap("$")).doesNotContainKey("stale"));
    }
}
