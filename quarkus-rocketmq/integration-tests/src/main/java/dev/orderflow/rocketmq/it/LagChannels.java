package dev.orderflow.rocketmq.it;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.smallrye.reactive.messaging.annotations.Blocking;

/** Two consumer groups on one topic whose handlers can be stalled, to make them fall behind. */
@ApplicationScoped
public class LagChannels {

    @Inject
    @Channel("lag-out")
    Emitter<String> out;

    private volatile CountDownLatch gate = new CountDownLatch(0);
    private final AtomicInteger consumed = new AtomicInteger();
    private final AtomicInteger consumedTopicBound = new AtomicInteger();

    @Incoming("lag-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> consume(Message<String> message) throws InterruptedException {
        awaitRelease();
        consumed.incrementAndGet();
        return message.ack();
    }

    /** A second group on the same topic, its pulled messages bounded per channel rather than per queue. */
    @Incoming("lag-topic-bound-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> consumeTopicBound(Message<String> message) throws InterruptedException {
        awaitRelease();
        consumedTopicBound.incrementAndGet();
        return message.ack();
    }

    private void awaitRelease() throws InterruptedException {
        if (!gate.await(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the lag channels were stalled for more than 2 minutes");
        }
    }

    /** From now on both handlers block until {@link #release()}. */
    public void stall() {
        gate = new CountDownLatch(1);
    }

    public void release() {
        gate.countDown();
    }

    /** Messages lag-in consumed. */
    public int consumed() {
        return consumed.get();
    }

    /** Messages lag-topic-bound-in consumed. */
    public int consumedTopicBound() {
        return consumedTopicBound.get();
    }

    public Emitter<String> emitter() {
        return out;
    }
}
