package dev.orderflow.rocketmq.benchmark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

import jakarta.inject.Inject;

import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Sync-send throughput of the {@code smallrye-rocketmq} connector against the raw
 * {@link DefaultMQProducer}, on one in-process broker (loopback, async flush) started here.
 *
 * <p>Three ways of sending the same bounded number of 1 KB messages to one topic, one send at a
 * time each, alternated over several rounds so that noise from other processes hits all of them:
 * <ul>
 * <li>{@code raw}: a loop calling {@code DefaultMQProducer.send(msg)} (sync, one thread);</li>
 * <li>{@code connector}: an {@link Emitter} on a {@code send-mode=sync} channel, with up to
 * {@link Settings#inFlight()} messages handed over and not yet acknowledged; the sink sends them one
 * after the other, so this is the connector's sync-send rate;</li>
 * <li>{@code connector-ack-each}: the caller waits for each message's ack before emitting the next,
 * as a request handler that returns only after its message is stored would.</li>
 * </ul>
 * Prints messages/s and overhead per round, the best round per way, and the median overhead.
 * Settings are system properties, see {@link Settings}.
 */
@QuarkusMain
public class ThroughputBenchmark implements QuarkusApplication {

    static final String CHANNEL = "bench";

    @Inject
    @Channel(CHANNEL)
    @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 4096)
    Emitter<byte[]> emitter;

    @ConfigProperty(name = "mp.messaging.outgoing." + CHANNEL + ".topic")
    String topic;

    @ConfigProperty(name = RocketMQConfigKeys.CONNECTOR_NAME_SERVER)
    String nameServer;

    public static void main(String... args) {
        Settings settings = Settings.fromSystemProperties();
        EmbeddedRocketMQ.deleteDataDir(settings.dataDir());
        long brokerStart = System.nanoTime();
        try (EmbeddedRocketMQ broker = EmbeddedRocketMQ.start(new EmbeddedRocketMQ.Options(settings.dataDir()))) {
            System.out.printf("broker: name server %s, broker %s, started in %d ms, data %s%n",
                    broker.nameServerAddress(), broker.brokerAddress(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - brokerStart), settings.dataDir());
            System.setProperty(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, broker.nameServerAddress());
            AtomicReference<Integer> exitCode = new AtomicReference<>();
            BiConsumer<Integer, Throwable> onExit = (code, failure) -> {
                if (failure != null) {
                    failure.printStackTrace();
                }
                exitCode.set(code);
            };
            Quarkus.run(ThroughputBenchmark.class, onExit, args);
            System.out.println("stopping the broker (its service threads take 10-20 s to finish)");
            if (exitCode.get() == null || exitCode.get() != 0) {
                throw new IllegalStateException("The benchmark application failed, exit code " + exitCode.get());
            }
        }
    }

    @Override
    public int run(String... args) throws Exception {
        Settings settings = Settings.fromSystemProperties();
        byte[] payload = new byte[settings.messageBytes()];
        new Random(42).nextBytes(payload);
        System.out.printf("benchmark: %d messages x %d bytes per round, %d rounds, %d warm-up messages per way, "
                + "topic %s, %d cores%n", settings.messages(), settings.messageBytes(), settings.rounds(), settings.warmUp(),
                topic, Runtime.getRuntime().availableProcessors());

        DefaultMQProducer raw = new DefaultMQProducer("bench_raw_group");
        raw.setNamesrvAddr(nameServer);
        raw.setInstanceName("bench-raw");
        raw.start();
        try {
            sendRaw(raw, payload, settings.warmUp());
            sendThroughConnector(payload, settings.warmUp(), settings.inFlight());
            sendThroughConnector(payload, settings.warmUp(), 1);

            List<Double> rawRates = new ArrayList<>();
            List<Double> connectorRates = new ArrayList<>();
            List<Double> ackEachRates = new ArrayList<>();
            for (int round = 1; round <= settings.rounds(); round++) {
                rawRates.add(rate(settings.messages(), () -> sendRaw(raw, payload, settings.messages())));
                connectorRates.add(rate(settings.messages(),
                        () -> sendThroughConnector(payload, settings.messages(), settings.inFlight())));
                ackEachRates.add(rate(settings.messages(), () -> sendThroughConnector(payload, settings.messages(), 1)));
                int i = round - 1;
                System.out.printf("round %d: raw %,.0f msg/s | connector %,.0f msg/s (%.1f%%) | "
                        + "connector-ack-each %,.0f msg/s (%.1f%%)%n", round, rawRates.get(i), connectorRates.get(i),
                        overheadPercent(rawRates.get(i), connectorRates.get(i)), ackEachRates.get(i),
                        overheadPercent(rawRates.get(i), ackEachRates.get(i)));
            }
            System.out.printf("best rounds: raw %,.0f msg/s | connector %,.0f msg/s | connector-ack-each %,.0f msg/s%n",
                    best(rawRates), best(connectorRates), best(ackEachRates));
            // Raw and connector run back to back within a round, so the per-round ratio is the
            // comparison least disturbed by other load on the machine; its median is the figure.
            System.out.printf("connector overhead vs raw (median of per-round ratios): connector %.1f%% | "
                    + "connector-ack-each %.1f%%%n", medianOverheadPercent(rawRates, connectorRates),
                    medianOverheadPercent(rawRates, ackEachRates));
        } finally {
            raw.shutdown();
        }
        return 0;
    }

    static double overheadPercent(double raw, double connector) {
        return (raw - connector) / raw * 100.0;
    }

    static double medianOverheadPercent(List<Double> rawRates, List<Double> connectorRates) {
        List<Double> overheads = new ArrayList<>();
        for (int i = 0; i < rawRates.size(); i++) {
            overheads.add(overheadPercent(rawRates.get(i), connectorRates.get(i)));
        }
        overheads.sort(Comparator.naturalOrder());
        int middle = overheads.size() / 2;
        return overheads.size() % 2 == 1 ? overheads.get(middle) : (overheads.get(middle - 1) + overheads.get(middle)) / 2;
    }

    private static double best(List<Double> rates) {
        return rates.stream().max(Comparator.naturalOrder()).orElseThrow();
    }

    /** Messages per second for running {@code sends}, which sends {@code messages} messages. */
    private static double rate(int messages, Sends sends) throws Exception {
        long start = System.nanoTime();
        sends.run();
        return messages / ((System.nanoTime() - start) / 1e9);
    }

    @FunctionalInterface
    interface Sends {
        void run() throws Exception;
    }

    private void sendRaw(DefaultMQProducer producer, byte[] payload, int messages)
            throws MQClientException, RemotingException, MQBrokerException, InterruptedException {
        for (int i = 0; i < messages; i++) {
            SendResult result = producer.send(new org.apache.rocketmq.common.message.Message(topic, payload));
            if (result.getSendStatus() != SendStatus.SEND_OK) {
                throw new IllegalStateException("Raw send " + i + " not stored: " + result);
            }
        }
    }

    /**
     * Emits {@code messages} messages with at most {@code inFlight} of them not yet acknowledged,
     * and returns when all are acknowledged. Fails on the first nack.
     */
    private void sendThroughConnector(byte[] payload, int messages, int inFlight) throws InterruptedException {
        Semaphore permits = new Semaphore(inFlight);
        CountDownLatch acknowledged = new CountDownLatch(messages);
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        for (int i = 0; i < messages && firstFailure.get() == null; i++) {
            permits.acquire();
            emitter.send(Message.of(payload, () -> {
                permits.release();
                acknowledged.countDown();
                return CompletableFuture.completedFuture(null);
            }, failure -> {
                firstFailure.compareAndSet(null, failure);
                permits.release();
                acknowledged.countDown();
                return CompletableFuture.completedFuture(null);
            }));
        }
        if (firstFailure.get() == null && !acknowledged.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException("Connector sends not acknowledged within 5 minutes: "
                    + acknowledged.getCount() + " of " + messages + " outstanding");
        }
        if (firstFailure.get() != null) {
            throw new IllegalStateException("Connector send failed", firstFailure.get());
        }
    }

    /** Benchmark settings, from system properties {@code benchmark.*}. */
    record Settings(int messages, int warmUp, int messageBytes, int rounds, int inFlight, Path dataDir) {

        static Settings fromSystemProperties() {
            return new Settings(
                    Integer.getInteger("benchmark.messages", 20_000),
                    Integer.getInteger("benchmark.warm-up", 10_000),
                    Integer.getInteger("benchmark.message-bytes", 1024),
                    Integer.getInteger("benchmark.rounds", 3),
                    Integer.getInteger("benchmark.in-flight", 1024),
                    Path.of(System.getProperty("benchmark.data-dir",
                            Path.of(System.getProperty("java.io.tmpdir"), "quarkus-rocketmq-benchmark").toString())));
        }
    }
}
