package dev.orderflow.rocketmq.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQChannels;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A channel opened from code runs like a declared one: its name server comes from the connector
 * level (Dev Services), it delivers and commits, and it shows in the readiness check.
 */
@QuarkusTest
class RocketMQChannelsTest {

    @Inject
    RocketMQChannels channels;

    @Test
    void aChannelOpenedFromCodeConsumesWithTheConnectorLevelSettingsAndReportsItsReadiness() throws Exception {
        String topic = RawRocketMQ.unique("it_opened");
        String channel = topic + "-in";
        RawRocketMQ.sendToQueueZero(topic, List.of("first", "second"));
        List<String> received = new CopyOnWriteArrayList<>();

        channels.openIncoming(channel, Map.of("topic", topic, "consumer-group", topic + "_group",
                "consume-from", "first")).subscribe().with(message -> {
                    received.add(message.getMetadata(IncomingRocketMQMetadata.class).orElseThrow().key());
                    message.ack();
                });

        await().atMost(Duration.ofSeconds(60)).untilAsserted(
                () -> assertThat(received).containsExactlyInAnyOrder("first", "second"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/health/ready").then()
                .body(ReadinessTest.CHECK + ".data.'" + channel + "'", equalTo("[OK]")));
    }

    @Test
    void aDeclaredOrAlreadyOpenedNameIsRefused() {
        assertThatThrownBy(() -> channels.openIncoming("basic-in", Map.of("topic", "it_basic")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Channel basic-in is declared in the configuration");

        String topic = RawRocketMQ.unique("it_opened_twice");
        // Subscribed, so that it starts: a channel left unstarted would keep the application unready.
        channels.openIncoming(topic, Map.of("topic", topic)).subscribe().with(message -> message.ack());
        assertThatThrownBy(() -> channels.openIncoming(topic, Map.of("topic", topic)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Channel " + topic + " was opened already");
    }
}
