package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.orderflow.rocketmq.RocketMQSendException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A broker that answers a send with anything but {@code SEND_OK} (here {@code FLUSH_SLAVE_TIMEOUT}:
 * stored on the master, never confirmed by the replica it waits for) fails the send: the message is
 * nacked with the broker's answer and counted as a send failure, never acked. Real brokers: the
 * second in-process RocketMQ of {@link SecondRocketMQResource}, a synchronous master without its replica.
 */
@QuarkusTest
@WithTestResource(value = SecondRocketMQResource.class, scope = TestResourceScope.GLOBAL)
class UnconfirmedSendTest {

    @Inject
    FailurePathChannels channels;

    @Inject
    MeterRegistry registry;

    @ParameterizedTest
    @ValueSource(strings = { "sync", "async" })
    void anAnswerOtherThanSendOkNacksTheMessageWithTheBrokersAnswer(String mode) throws Exception {
        String channel = "unconfirmed-" + mode;
        double failuresBefore = sendFailures(channel);
        CompletableFuture<Throwable> settled = new CompletableFuture<>();

        channels.unconfirmed(mode).send(Message.of(RawRocketMQ.unique(channel))
                .withAck(() -> {
                    settled.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(failure -> {
                    settled.complete(failure);
                    return CompletableFuture.completedFuture(null);
                }));

        Throwable failure = settled.get(30, TimeUnit.SECONDS);
        assertThat(failure).as("acked instead of nacked").isNotNull()
                .isInstanceOf(RocketMQSendException.class)
                .hasMessageContaining("Channel " + channel + ": broker answered FLUSH_SLAVE_TIMEOUT");
        assertThat(sendFailures(channel)).isEqualTo(failuresBefore + 1);
    }

    private double sendFailures(String channel) {
        return registry.get("rocketmq.send.failures").tag("channel", channel).counter().count();
    }
}
