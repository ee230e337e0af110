package dev.orderflow.order.filequeue;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.OrderDatabase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The file queue as the application runs it (orderflow.file-queue.enabled=true): a file left in
 * processing/ by a crashed instance is recovered at start-up, and a second drop of the same content
 * creates no second order.
 */
@QuarkusTest
@TestProfile(FileQueueStartupTest.Enabled.class)
class FileQueueStartupTest {

    static final Path ROOT = Path.of("target", "file-queue-startup-" + UUID.randomUUID()).toAbsolutePath();
    static final String CUSTOMER = "FQS-" + UUID.randomUUID();
    static final String BODY = "{\"customerId\":\"" + CUSTOMER + "\",\"phone\":\"+819012345678\","
            + "\"items\":[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":\"3.00\"}]}";

    public static class Enabled implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            seed();
            return Map.of(
                    "orderflow.file-queue.enabled", "true",
                    "orderflow.file-queue.root", ROOT.toString(),
                    "orderflow.file-queue.poll-every", "PT0.2S",
                    "orderflow.file-queue.processing-lease", "PT30S");
        }
    }

    /** The state a crash leaves: a file claimed an hour ago, still in processing/; and a re-drop in inbox/. */
    static synchronized void seed() {
        try {
            Path crashed = ROOT.resolve("processing/crashed.json");
            if (Files.exists(crashed)) {
                return;
            }
            Files.createDirectories(ROOT.resolve("processing"));
            Files.createDirectories(ROOT.resolve("inbox"));
            Files.writeString(crashed, BODY);
            Files.setLastModifiedTime(crashed, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
            Files.writeString(ROOT.resolve("inbox/redropped.json"), BODY);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void recoversTheCrashedFileAtStartUpWithoutASecondOrder() throws IOException {
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(ROOT.resolve("done/crashed.json"))
                && Files.exists(ROOT.resolve("done/redropped.json")));

        assertThat(OrderDatabase.ordersOfCustomer(CUSTOMER)).isEqualTo(1);
        try (var processing = Files.list(ROOT.resolve("processing")); var errors = Files.list(ROOT.resolve("error"))) {
            assertThat(processing).isEmpty();
            assertThat(errors).isEmpty();
        }
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("orderflow_file_queue_recovered_total 1.0"))
                .body(containsString("orderflow_file_queue_files_seen_total 2.0"))
                .body(containsString("orderflow_file_queue_files_processed_total 2.0"))
                .body(containsString("orderflow_file_queue_orders_total{result=\"duplicate\"} 1.0"))
                .body(containsString("orderflow_file_queue_inbox_oldest_age_seconds"));
    }
}
