package dev.orderflow.order.messaging;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.consumer.testing.TopicProbe;
import dev.orderflow.order.OrderMetrics;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Access records reach {@code access_log_topic}: one per request, each once, also when many requests
 * come at once (they then share batches), and none counted as dropped. Real broker, real MariaDB.
 */
@QuarkusTest
class AccessLogTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyRequestOfABurstIsRecordedOnce() throws Exception {
        TopicProbe accessLog = TopicProbe.of(ConfigProvider.getConfig()
                .getValue("mp.messaging.outgoing.access-log.topic", String.class));
        double droppedBefore = OrderMetrics.accessRecordsDropped();
        String marker = "ACCESS-" + UUID.randomUUID();
        int requests = 400;

        ExecutorService clients = Executors.newFixedThreadPool(16);
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                String path = "/orders/" + marker + "-" + i;
                statuses.add(clients.submit(() -> given().get(path).statusCode()));
            }
            for (Future<Integer> status : statuses) {
                assertThat(status.get()).isEqualTo(404);
            }
        } finally {
            clients.shutdownNow();
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> accessLog.mentioning(marker).size() >= requests);
        // Nothing more comes: no record was sent twice.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                .until(() -> accessLog.mentioning(marker).size() == requests);
        List<JsonNode> records = new ArrayList<>();
        for (TopicProbe.Received received : accessLog.mentioning(marker)) {
            records.add(JSON.readTree(received.body()));
        }
        assertThat(records).extracting(r -> r.get("path").asText()).doesNotHaveDuplicates().hasSize(requests)
                .allMatch(path -> path.startsWith("/orders/" + marker + "-"));
        assertThat(records).allSatisfy(r -> {
            assertThat(r.get("method").asText()).isEqualTo("GET");
            assertThat(r.get("status").asInt()).isEqualTo(404);
            assertThat(r.get("durationMs").asLong()).isNotNegative();
        });
        assertThat(OrderMetrics.accessRecordsDropped()).isEqualTo(droppedBefore);
    }
}
