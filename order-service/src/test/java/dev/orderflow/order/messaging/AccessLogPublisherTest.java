package dev.orderflow.order.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.rocketmq.OutgoingRocketMQBatchMetadata;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The batching of {@link AccessLogPublisher} without a broker: what one batch holds, that one batch
 * is in flight at a time, and what is counted as dropped. (The way to the real broker is
 * {@code AccessLogTest}'s.) The flusher ticks once an hour here; the test calls {@code flush()}.
 */
class AccessLogPublisherTest {

    private final RecordingEmitter emitter = new RecordingEmitter();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private AccessLogPublisher publisher;

    @AfterEach
    void stop() {
        if (publisher != null) {
            publisher.stop();
        }
    }

    @Test
    void batchesHoldAtMostBatchSizeAndOnlyOneIsInFlight() {
        publisher = publisher(100, 3);
        for (int i = 0; i < 7; i++) {
            publisher.publish(record("/orders/" + i));
        }

        publisher.flush();
        publisher.flush(); // the first batch is not answered yet: nothing more goes out
        assertThat(emitter.sent).hasSize(1);
        assertThat(paths(emitter.sent.get(0))).containsExactly("/orders/0", "/orders/1", "/orders/2");

        emitter.sent.get(0).ack(); // four still queued, a full batch: the next goes at once
        assertThat(emitter.sent).hasSize(2);
        assertThat(paths(emitter.sent.get(1))).containsExactly("/orders/3", "/orders/4", "/orders/5");

        emitter.sent.get(1).ack(); // one left: it waits for the next tick
        assertThat(emitter.sent).hasSize(2);
        publisher.flush();
        assertThat(emitter.sent).hasSize(3);
        assertThat(paths(emitter.sent.get(2))).containsExactly("/orders/6");
        emitter.sent.get(2).ack();

        assertThat(emitter.sent).allSatisfy(m -> assertThat(m.getMetadata(OutgoingRocketMQBatchMetadata.class))
                .hasValueSatisfying(batch -> assertThat(batch.size()).isEqualTo(((List<?>) m.getPayload()).size())));
        assertThat(dropped()).isZero();
    }

    @Test
    void aFullQueueDropsAndCountsTheRecord() {
        publisher = publisher(2, 10);
        for (int i = 0; i < 5; i++) {
            publisher.publish(record("/orders/" + i));
        }

        assertThat(dropped()).isEqualTo(3);
        publisher.flush();
        assertThat(paths(emitter.sent.get(0))).containsExactly("/orders/0", "/orders/1");
    }

    @Test
    void aFailedBatchCountsItsRecordsAsDroppedAndTheNextBatchStillGoes() {
        publisher = publisher(100, 10);
        publisher.publish(record("/orders/a"));
        publisher.publish(record("/orders/b"));
        publisher.flush();

        emitter.sent.get(0).nack(new IllegalStateException("broker unreachable"));
        assertThat(dropped()).isEqualTo(2);

        publisher.publish(record("/orders/c"));
        publisher.flush();
        assertThat(emitter.sent).hasSize(2);
        assertThat(paths(emitter.sent.get(1))).containsExactly("/orders/c");
    }

    @Test
    void largeRecordsEndABatchLongBeforeTheClientsLimit() {
        publisher = publisher(100, 256);
        String longPath = "/orders/" + "x".repeat(300_000);
        for (int i = 0; i < 10; i++) {
            publisher.publish(record(longPath + i));
        }

        publisher.flush();
        // About 1 MiB per batch: the fourth 300 KB record passes it, so a batch holds four.
        assertThat(paths(emitter.sent.get(0))).hasSize(4);
        emitter.sent.get(0).ack();
        publisher.flush();
        emitter.sent.get(1).ack();
        publisher.flush();
        assertThat(emitter.sent).extracting(m -> paths(m).size()).containsExactly(4, 4, 2);
    }

    @Test
    void recordsStillQueuedAtShutdownAreCountedAsDropped() {
        publisher = publisher(100, 2);
        for (int i = 0; i < 5; i++) {
            publisher.publish(record("/orders/" + i));
        }
        publisher.flush(); // two in flight, three queued

        publisher.stop(); // tries once more, but a batch is still in flight
        assertThat(emitter.sent).hasSize(1);
        assertThat(dropped()).isEqualTo(3);
        publisher = null;
    }

    private AccessLogPublisher publisher(int queueSize, int batchSize) {
        return new AccessLogPublisher(emitter, new ObjectMapper().registerModule(new JavaTimeModule()), registry,
                config(queueSize, batchSize));
    }

    private double dropped() {
        return registry.get("orders.access_log.dropped").counter().count();
    }

    private static AccessLogPublisher.AccessRecord record(String path) {
        return new AccessLogPublisher.AccessRecord(Instant.parse("2026-11-30T00:00:00Z"), "GET", path, 200, 1, null,
                "127.0.0.1");
    }

    private static List<String> paths(Message<?> message) {
        ObjectMapper json = new ObjectMapper();
        List<String> paths = new ArrayList<>();
        for (Object element : (List<?>) message.getPayload()) {
            try {
                paths.add(json.readTree((String) element).get("path").asText());
            } catch (Exception e) {
                throw new AssertionError("not a JSON access record: " + element, e);
            }
        }
        return paths;
    }

    private static OrderServiceConfig config(int queueSize, int batchSize) {
        OrderServiceConfig.AccessLog accessLog = new OrderServiceConfig.AccessLog() {
            @Override
            public int queueSize() {
                return queueSize;
            }

            @Override
            public int batchSize() {
                return batchSize;
            }

            @Override
            public Duration flushInterval() {
                return Duration.ofHours(1);
            }
        };
        return new OrderServiceConfig() {
            @Override
            public String statusBaseUrl() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Limits limits() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Messaging messaging() {
                throw new UnsupportedOperationException();
            }

            @Override
            public AccessLog accessLog() {
                return accessLog;
            }

            @Override
            public GroupCommit groupCommit() {
                throw new UnsupportedOperationException();
            }
        };
    }

    /** Keeps what is emitted; the test answers each message itself. */
    private static final class RecordingEmitter implements Emitter<Object> {
        final List<Message<?>> sent = new CopyOnWriteArrayList<>();

        @Override
        public CompletionStage<Void> send(Object payload) {
            throw new UnsupportedOperationException("the publisher sends messages");
        }

        @Override
        public <M extends Message<? extends Object>> void send(M message) {
            sent.add(message);
        }

        @Override
        public void complete() {
        }

        @Override
        public void error(Exception e) {
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean hasRequests() {
            return true;
        }
    }
}
