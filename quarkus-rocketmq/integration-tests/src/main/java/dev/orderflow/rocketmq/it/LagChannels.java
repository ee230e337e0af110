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

/** A consumer group whose handler can be stalled, to make it fall behind. */
@ApplicationScoped
public class LagChannels {

    @Inject
    @Channel("lag-out")
    Emitter<String> out;

    private volatile CountDownLatch gate = new CountDownLatch(0);
    private final AtomicInteger consumed = new AtomicInteger();

    @Incoming("lag-in")
    @Blocking(ordered = false)
    public CompletionStage<Void> consume(Message<String> message) throws InterruptedException {
        if (!gate.await(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("lag-in was stalled for more than 2 minutes");
        }
        consumed.incrementAndGet();
        return message.ack();
    }

    /** From now on the handler blocks until {@link #release()}. */
    public void stall() {
        gate = new CountDownLatch(1);
    }

    public void release() {
        gate.countDown();
    }

    public int consumed() {
        return consumed.get();
    }

    public Emitter<String> emitter() {
        return out;
    }
}
