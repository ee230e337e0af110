package dev.orderflow.rocketmq.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.rocketmq.common.message.MessageExt;

import dev.orderflow.rocketmq.RocketMQBatchFailure;

/**
 * Combines the deliveries that consumer threads hold at the same time into application batches of
 * up to {@code batchSize} messages, with at most {@code maxInFlight} batches at the application
 * at once.
 *
 * <p>Why: the client forms a delivery from what one fetch of one queue returned. A consumer that
 * keeps fetching while the application is busy gets a message or two per fetch, so under load the
 * backlog waits as many tiny deliveries, and a batch-capable application pays its per-batch cost
 * for each. Here a consumer thread queues its delivery; whichever waiting thread finds a free slot
 * takes the oldest deliveries (whole, in arrival order) as one batch, hands it over and waits for
 * the answer, which is then split back per delivery: each thread settles its own messages exactly
 * as if it had delivered them alone.
 *
 * <p>With a linger, a free slot does not take a batch that is not full until its oldest delivery
 * has waited that long: at a low rate the deliveries of a few pulls then share one batch (one
 * transaction) instead of each paying the per-batch cost, at the price of up to that much latency.
 *
 * <p>With a backlog bound above {@code maxInFlight}, a full batch may go while {@code maxInFlight}
 * are already at the application, up to that bound: under a backlog the batches overlap (one's
 * database waits with another's work), while at a low rate, where batches are not full, they go
 * one after the other, as without the bound (overlapping small batches cost lock waits on shared
 * rows and latency).
 */
final class BatchCombiner {

    /** One consumer thread's delivery, waiting to be combined, then its share of the batch's answer. */
    private static final class Delivery {
        final List<MessageExt> messages;
        final long arrivedNanos = System.nanoTime();
        boolean answered;
        Throwable failure;

        Delivery(List<MessageExt> messages) {
            this.messages = messages;
        }
    }

    private final int batchSize;
    private final int maxInFlight;
    /** Batches at the application at most when the next one is full; at least {@code maxInFlight}. */
    private final int maxInFlightWhenFull;
    private final long lingerNanos;
    private final Function<List<MessageExt>, Throwable> deliverBatch;
    private final Supplier<Throwable> releasedFailure;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Guarded by {@code lock}, like the fields below. */
    private final ArrayDeque<Delivery> waiting = new ArrayDeque<>();
    private int inFlight;
    /** Messages in {@code waiting}. */
    private int waitingMessages;
    private boolean released;

    /**
     * @param maxInFlightWhenFull batches at the application at most when the next one is full (a
     *                            backlog): at least {@code maxInFlight}
     * @param linger              how long a batch that is not full waits for more deliveries, from its
     *                            oldest one's arrival (zero: none)
     * @param deliverBatch        hands a batch to the application and waits: null for ack, else the cause
     * @param releasedFailure     the failure a delivery gets when it is given back at shutdown before
     *                            being handed over
     */
    BatchCombiner(int batchSize, int maxInFlight, int maxInFlightWhenFull, Duration linger,
            Function<List<MessageExt>, Throwable> deliverBatch, Supplier<Throwable> releasedFailure) {
        if (batchSize < 1 || maxInFlight < 1 || linger.isNegative()) {
            throw new IllegalArgumentException("batch size and batches in flight must be at least 1, the linger not negative");
        }
        if (maxInFlightWhenFull < maxInFlight) {
            throw new IllegalArgumentException("batches in flight under a backlog (" + maxInFlightWhenFull
                    + ") must be at least the batches in flight (" + maxInFlight + ")");
        }
        this.batchSize = batchSize;
        this.maxInFlight = maxInFlight;
        this.maxInFlightWhenFull = maxInFlightWhenFull;
        this.lingerNanos = linger.toNanos();
        this.deliverBatch = deliverBatch;
        this.releasedFailure = releasedFailure;
    }

    /**
     * Delivers {@code messages} as part of a combined batch; blocks until the application answered
     * for them. The calling thread may run batches that hold other threads' deliveries meanwhile.
     *
     * @return null when acknowledged; else the cause for these messages (a {@link RocketMQBatchFailure}
     *         with indices into {@code messages} when only some of them failed)
     * @throws InterruptedException when interrupted before the answer (the messages count as not
     *                              finished; they may still be in a batch another thread runs)
     */
    Throwable deliver(List<MessageExt> messages) throws InterruptedException {
        Delivery mine = new Delivery(messages);
        lock.lock();
        try {
            if (released) {
                return releasedFailure.get();
            }
            waiting.add(mine);
            waitingMessages += messages.size();
            if (lingerNanos > 0) {
                changed.signalAll(); // a thread lingering over a batch may find it full now
            }
            while (!mine.answered) {
                long lingerLeft = 0;
                boolean full = waitingMessages >= batchSize;
                if (!waiting.isEmpty() && (inFlight < maxInFlight || full && inFlight < maxInFlightWhenFull)) {
                    lingerLeft = full ? 0 : lingerNanos - (System.nanoTime() - waiting.peek().arrivedNanos);
                    if (lingerLeft <= 0) {
                        runOneBatch();
                        continue;
                    }
                }
                try {
                    if (lingerLeft > 0) {
                        changed.awaitNanos(lingerLeft);
                    } else {
                        changed.await();
                    }
                } catch (InterruptedException e) {
                    if (waiting.remove(mine)) {
                        waitingMessages -= messages.size();
                    }
                    throw e;
                }
            }
            return mine.failure;
        } finally {
            lock.unlock();
        }
    }

    /** With the lock held: takes the oldest deliveries, hands them over without the lock, answers them. */
    private void runOneBatch() {
        List<Delivery> batch = take();
        List<MessageExt> messages = new ArrayList<>();
        batch.forEach(d -> messages.addAll(d.messages));
        inFlight++;
        // Stays the answer if the hand-over ends by an Error: the deliveries are then redelivered, never acked.
        Throwable failure = new IllegalStateException("the combined batch was not handed over to the end");
        // Unlocked while the application works, so that other threads queue and run further batches.
        lock.unlock();
        try {
            failure = deliverBatch.apply(messages);
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            lock.lock();
            inFlight--;
            answer(batch, failure);
            changed.signalAll();
        }
    }

    /** Gives back every delivery not yet handed over, and any later one (shutdown). */
    void release() {
        lock.lock();
        try {
            released = true;
            for (Delivery delivery : waiting) {
                delivery.failure = releasedFailure.get();
                delivery.answered = true;
            }
            waiting.clear();
            waitingMessages = 0;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Deliveries waiting to be combined (for tests). */
    int waitingCount() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    /** The oldest whole deliveries that fit in one batch (at least one, whatever its size). */
    private List<Delivery> take() {
        List<Delivery> batch = new ArrayList<>();
        int size = 0;
        while (!waiting.isEmpty() && (batch.isEmpty() || size + waiting.peek().messages.size() <= batchSize)) {
            Delivery next = waiting.poll();
            batch.add(next);
            size += next.messages.size();
            waitingMessages -= next.messages.size();
        }
        return batch;
    }

    /** Splits the batch's answer back per delivery. */
    private static void answer(List<Delivery> batch, Throwable failure) {
        Map<Integer, Throwable> failed = failure instanceof RocketMQBatchFailure partial ? partial.failures() : null;
        int offset = 0;
        for (Delivery delivery : batch) {
            int size = delivery.messages.size();
            if (failed == null) {
                delivery.failure = failure;
            } else {
                Map<Integer, Throwable> own = new HashMap<>();
                for (int i = 0; i < size; i++) {
                    Throwable cause = failed.get(offset + i);
                    if (cause != null) {
                        own.put(i, cause);
                    }
                }
                delivery.failure = own.isEmpty() ? null : new RocketMQBatchFailure(own);
            }
            delivery.answered = true;
            offset += size;
        }
    }
}
