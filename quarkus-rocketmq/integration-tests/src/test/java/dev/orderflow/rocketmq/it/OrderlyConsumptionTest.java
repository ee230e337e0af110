package dev.orderflow.rocketmq.it;

import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.ACK;
import static dev.orderflow.rocketmq.it.FailurePathChannels.Answer.NACK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.it.FailurePathChannels.Delivery;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Orderly consumption keeps per-key order, also when a message fails once and is retried in
 * place. Messages are sent through the connector with a sharding key (one key → one queue) and
 * consumed by an orderly channel. Real broker started in-process by the extension's Dev Services.
 */
@QuarkusTest
class OrderlyConsumptionTest {

    private static final int KEYS = 4;
    private static final int PER_KEY = 10;

    @Inject
    FailurePathChannels channels;

    @Test
    void perKeyOrderHoldsIncludingAMessageRetriedInPlace() throws Exception {
        String run = RawRocketMQ.unique("ord");
        List<String> keys = IntStream.range(0, KEYS).mapToObj(i -> run + "-k" + i).toList();
        String failsOnce = keys.get(1) + ":3";
        channels.script("orderly-in", (k, attempt) -> k.equals(failsOnce) && attempt == 1 ? NACK : ACK);

        // Interleaved: k0:0 k1:0 k2:0 k3:0 k0:1 ... so that order is not an accident of sending.
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int seq = 0; seq < PER_KEY; seq++) {
            for (String key : keys) {
                String id = key + ":" + seq;
                sends.add(channels.send("it_orderly", id, id, key));
            }
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(acked(run)).hasSize(KEYS * PER_KEY));

        Map<String, List<Delivery>> byKey = channels.deliveries("orderly-in").stream()
                .filter(d -> d.key().startsWith(run))
                .collect(Collectors.groupingBy(d -> d.key().substring(0, d.key().indexOf(':'))));
        assertThat(byKey).containsOnlyKeys(keys);
        int violations = 0;
        for (String key : keys) {
            List<Integer> ackedSeqs = byKey.get(key).stream().filter(d -> d.answer() == ACK).map(OrderlyConsumptionTest::seq)
                    .toList();
            assertThat(ackedSeqs).as("acknowledged sequence of %s", key)
                    .containsExactlyElementsOf(IntStream.range(0, PER_KEY).boxed().toList());
            for (int i = 1; i < ackedSeqs.size(); i++) {
                if (ackedSeqs.get(i) <= ackedSeqs.get(i - 1)) {
                    violations++;
                }
            }
            // All messages of one key came from one queue.
            assertThat(byKey.get(key)).extracting(Delivery::queueId).containsOnly(byKey.get(key).get(0).queueId());
        }
        assertThat(violations).isZero();

        // The failed message was retried in place: its second delivery came right after its first,
        // before anything behind it of the same key, with the attempt counted.
        List<Delivery> failedKey = byKey.get(keys.get(1));
        assertThat(failedKey).extracting(Delivery::key).containsExactlyElementsOf(expectedWithRetry(keys.get(1)));
        assertThat(failedKey.get(3)).satisfies(d -> {
            assertThat(d.answer()).isEqualTo(NACK);
            assertThat(d.reconsumeTimes()).isZero();
        });
        assertThat(failedKey.get(4)).satisfies(d -> {
            assertThat(d.answer()).isEqualTo(ACK);
            assertThat(d.reconsumeTimes()).isEqualTo(1);
            assertThat(d.topic()).isEqualTo("it_orderly");
        });
    }

    private List<Delivery> acked(String run) {
        return channels.deliveries("orderly-in").stream()
                .filter(d -> d.key().startsWith(run) && d.answer() == ACK).toList();
    }

    private static List<String> expectedWithRetry(String key) {
        List<String> expected = new ArrayList<>();
        for (int seq = 0; seq < PER_KEY; seq++) {
            expected.add(key + ":" + seq);
            if (seq == 3) {
                expected.add(key + ":" + seq);
            }
        }
        return expected;
    }

    private static int seq(Delivery d) {
        return Integer.parseInt(d.key().substring(d.key().indexOf(':') + 1));
    }
}
