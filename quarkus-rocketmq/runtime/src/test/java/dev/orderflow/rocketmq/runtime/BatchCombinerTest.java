package dev.orderflow.rocketmq.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.RocketMQBatchFailure;

/** The combiner alone, with consumer threads of its own and a scripted application. */
class BatchCombinerTest {

    private static final RuntimeException RELEASED = new RuntimeException("released at shutdown");

    private final ExecutorService consumerThreads = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        consumerThreads.shutdownNow();
    }

    /** Holds the application's first batch until the test opens it, so that deliveries pile up meanwhile. */
    private static final class Gate {
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);

        /** Called by the application: signals that it holds a batch, then waits until opened. */
        void hold() {
            held.countDown();
            try {
                opened.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void awaitHeld() throws InterruptedException {
            assertThat(held.await(10, TimeUnit.SECONDS)).as("the application holds a batch").isTrue();
        }

        void open() {
            opened.countDown();
        }
    }

    private static List<MessageExt> messages(String... bodies) {
        List<MessageExt> messages = new ArrayList<>();
        for (String body : bodies) {
            MessageExt message = new MessageExt();
            message.setBody(body.getBytes(StandardCharsets.UTF_8));
            messages.add(message);
        }
        return messages;
    }

    private static List<String> bodies(List<MessageExt> messages) {
        return messages.stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList();
    }

    /** Waits until {@code count} deliveries wait in the combiner to be combined. */
    private static void awaitWaiting(BatchCombiner combiner, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (combiner.waitingCount() < count) {
            assertThat(System.nanoTime()).as("deliveries queued in time").isLessThan(deadline);
            Thread.sleep(5); // polling interval of the condition above
        }
    }

    @Test
    void deliveriesWaitingWhileABatchIsHeldAreCombinedAndTheAnswerIsSplitBack() throws Exception {
        Gate gate = new Gate();
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        Function<List<MessageExt>, Throwable> application = batch -> {
            batches.add(bodies(batch));
            if (batches.size() == 1) {
                gate.hold();
                return null;
            }
            // Second batch: [b1, b2, c1]; element 1 (b2) fails.
            return new RocketMQBatchFailure(Map.of(1, new IllegalStateException("b2 failed")));
        };
        BatchCombiner combiner = new BatchCombiner(16, 1, 1, Duration.ZERO, application, () -> RELEASED);

        Future<Throwable> a = consumerThreads.submit(() -> combiner.deliver(messages("a1")));
        gate.awaitHeld();
        Future<Throwable> b = consumerThreads.submit(() -> {
            return combiner.deliver(messages("b1", "b2"));
        });
        awaitWaiting(combiner, 1);
        Future<Throwable> c = consumerThreads.submit(() -> {
            return combiner.deliver(messages("c1"));
        });
        awaitWaiting(combiner, 2);
        gate.open();

        assertThat(a.get(10, TimeUnit.SECONDS)).isNull();
        Throwable bAnswer = b.get(10, TimeUnit.SECONDS);
        assertThat(bAnswer).isInstanceOf(RocketMQBatchFailure.class);
        assertThat(((RocketMQBatchFailure) bAnswer).failures()).containsOnlyKeys(1);
        assertThat(c.get(10, TimeUnit.SECONDS)).as("c1 succeeded").isNull();
        assertThat(batches).containsExactly(List.of("a1"), List.of("b1", "b2", "c1"));
    }

    @Test
    void withALingerDeliveriesShareABatchThatGoesAtOnceWhenFull() throws Exception {
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        // A linger far longer than the test: only a full batch can be handed over.
        BatchCombiner combiner = new BatchCombiner(4, 1, 1, Duration.ofMinutes(5), batch -> {
            batches.add(bodies(batch));
            return null;
        }, () -> RELEASED);

        Future<Throwable> a = consumerThreads.submit(() -> combiner.deliver(messages("a1")));
        awaitWaiting(combiner, 1);
        Future<Throwable> b = consumerThreads.submit(() -> combiner.deliver(messages("b1")));
        awaitWaiting(combiner, 2);
        assertThat(batches).as("nothing handed over while the batch is not full").isEmpty();
        Future<Throwable> c = consumerThreads.submit(() -> combiner.deliver(messages("c1", "c2")));

        assertThat(a.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(b.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(c.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(batches).containsExactly(List.of("a1", "b1", "c1", "c2"));
    }

    @Test
    void withALingerABatchThatIsNotFullGoesOnceItsOldestDeliveryWaitedThatLong() throws Exception {
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        BatchCombiner combiner = new BatchCombiner(16, 1, 1, Duration.ofMillis(200), batch -> {
            batches.add(bodies(batch));
            return null;
        }, () -> RELEASED);

        long started = System.nanoTime();
        assertThat(combiner.deliver(messages("a1"))).isNull();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(batches).containsExactly(List.of("a1"));
    }

    @Test
    void withABacklogBoundAFullBatchGoesBesideTheOneHeldAndABatchThatIsNotFullWaits() throws Exception {
        Gate gate = new Gate();
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        BatchCombiner combiner = new BatchCombiner(2, 1, 2, Duration.ZERO, batch -> {
            batches.add(bodies(batch));
            if (batches.size() == 1) {
                gate.hold();
            }
            return null;
        }, () -> RELEASED);

        Future<Throwable> a = consumerThreads.submit(() -> combiner.deliver(messages("a1")));
        gate.awaitHeld();
        Future<Throwable> b = consumerThreads.submit(() -> combiner.deliver(messages("b1")));
        awaitWaiting(combiner, 1);
        Thread.sleep(200); // time for a wrongly started second batch to show
        assertThat(batches).as("a batch that is not full waits while one is held").containsExactly(List.of("a1"));

        Future<Throwable> c = consumerThreads.submit(() -> combiner.deliver(messages("c1")));
        assertThat(b.get(10, TimeUnit.SECONDS)).as("b1 answered while a1 is still held").isNull();
        assertThat(c.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(a.isDone()).as("a1 still held").isFalse();
        assertThat(batches).containsExactly(List.of("a1"), List.of("b1", "c1"));

        gate.open();
        assertThat(a.get(10, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void aBacklogBoundBelowTheBatchesInFlightIsRefused() {
        assertThatThrownBy(() -> new BatchCombiner(2, 2, 1, Duration.ZERO, batch -> null, () -> RELEASED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batches in flight under a backlog (1) must be at least the batches in flight (2)");
    }

    @Test
    void aBatchIsNeverLargerThanTheBatchSizeUnlessOneDeliveryIsAlone() throws Exception {
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        BatchCombiner combiner = new BatchCombiner(2, 1, 1, Duration.ZERO, batch -> {
            batches.add(bodies(batch));
            return null;
        }, () -> RELEASED);

        assertThat(combiner.deliver(messages("x1", "x2", "x3"))).isNull();

        assertThat(batches).containsExactly(List.of("x1", "x2", "x3"));
    }

    @Test
    void anErrorWhileHandingOverIsNeverAnAckForTheOthersInTheBatch() throws Exception {
        Gate gate = new Gate();
        List<Integer> calls = new CopyOnWriteArrayList<>();
        BatchCombiner combiner = new BatchCombiner(16, 1, 1, Duration.ZERO, batch -> {
            calls.add(batch.size());
            if (calls.size() == 1) {
                gate.hold();
                return null;
            }
            throw new AssertionError("the application's thread died");
        }, () -> RELEASED);

        Future<Throwable> first = consumerThreads.submit(() -> combiner.deliver(messages("a1")));
        gate.awaitHeld();
        List<Future<Throwable>> others = new ArrayList<>();
        for (String body : List.of("b1", "c1")) {
            others.add(consumerThreads.submit(() -> {
                    try {
                    return combiner.deliver(messages(body));
                } catch (AssertionError e) {
                    return e;
                }
            }));
        }
        awaitWaiting(combiner, 2);
        gate.open();

        assertThat(first.get(10, TimeUnit.SECONDS)).isNull();
        for (Future<Throwable> other : others) {
            assertThat(other.get(10, TimeUnit.SECONDS)).as("not acknowledged").isNotNull();
        }
    }

    @Test
    void releaseGivesBackWaitingDeliveriesAndEveryLaterOne() throws Exception {
        Gate gate = new Gate();
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        BatchCombiner combiner = new BatchCombiner(16, 1, 1, Duration.ZERO, batch -> {
            batches.add(bodies(batch));
            gate.hold();
            return null;
        }, () -> RELEASED);

        Future<Throwable> held = consumerThreads.submit(() -> combiner.deliver(messages("a1")));
        gate.awaitHeld();
        Future<Throwable> parked = consumerThreads.submit(() -> {
            return combiner.deliver(messages("b1"));
        });
        awaitWaiting(combiner, 1);

        combiner.release();

        assertThat(parked.get(10, TimeUnit.SECONDS)).isSameAs(RELEASED);
        assertThat(combiner.deliver(messages("c1"))).isSameAs(RELEASED);
        gate.open();
        assertThat(held.get(10, TimeUnit.SECONDS)).as("the batch already handed over finishes").isNull();
        assertThat(batches).containsExactly(List.of("a1"));
    }
}
