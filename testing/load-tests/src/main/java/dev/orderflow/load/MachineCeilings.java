package dev.orderflow.load;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.RPCHook;

/**
 * What the machine allows without the services: MariaDB single-row commits per second and the
 * broker's sync sends per second, each from {@code concurrency} threads for a bounded time. The
 * broker figure is a {@code DefaultMQProducer.send} loop (the baseline of the connector's send cost
 * in quarkus-rocketmq/README.md) run from several threads, as the services send from several request
 * and consumer threads.
 */
public final class MachineCeilings {

    /** The ceiling's own database (dropped and recreated): one table of single-row inserts. */
    public static final String CEILING_DATABASE = "orderflow_perf_ceiling";
    static final String CEILING_TOPIC = "perf_ceiling_topic";
    /** About the size of an order event body. */
    static final int MESSAGE_BYTES = 512;
    /** 256 KB: within one core's L2 cache, so the memory bus plays no part in the core's figure. */
    static final int CORE_TABLE_INTS = 64 * 1024;
    /**
     * 64 MB: twice the shared (L3) cache of the machines the suite has run on (32 MB), so that
     * nearly every read of the memory figure misses every cache.
     */
    static final int MEMORY_TABLE_MB = 64;
    static final int MEMORY_TABLE_INTS = MEMORY_TABLE_MB * 1024 * 1024 / Integer.BYTES;
    /** The memory figure's cycle is the same in every run, so runs compare. */
    private static final long MEMORY_CYCLE_SEED = 42;

    private MachineCeilings() {
    }

    /** Commits per second: each thread its own connection, one INSERT then COMMIT per transaction. */
    public static double mariadbCommitsPerSecond(String host, int port, int concurrency, Duration duration) {
        String server = "jdbc:mariadb://" + host + ":" + port + "/";
        try (Connection admin = DriverManager.getConnection(server, "root", ""); Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS `" + CEILING_DATABASE + "`");
            statement.execute("CREATE DATABASE `" + CEILING_DATABASE + "` CHARACTER SET utf8mb4");
            statement.execute("CREATE TABLE `" + CEILING_DATABASE + "`.ceiling_commit (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
                    + " client INT NOT NULL, payload VARCHAR(64) NOT NULL) ENGINE=InnoDB");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare " + CEILING_DATABASE, e);
        }
        try {
            return perSecond(concurrency, duration, client -> {
                try (Connection connection = DriverManager.getConnection(server + CEILING_DATABASE, "root", "");
                        PreparedStatement insert = connection.prepareStatement(
                                "INSERT INTO ceiling_commit (client, payload) VALUES (?, ?)")) {
                    connection.setAutoCommit(false);
                    long deadline = System.nanoTime() + duration.toNanos();
                    long commits = 0;
                    while (System.nanoTime() < deadline) {
                        insert.setInt(1, client);
                        insert.setString(2, "order-" + commits);
                        insert.executeUpdate();
                        connection.commit();
                        commits++;
                    }
                    return commits;
                }
            });
        } finally {
            try (Connection admin = DriverManager.getConnection(server, "root", "");
                    Statement statement = admin.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS `" + CEILING_DATABASE + "`");
            } catch (SQLException e) {
                throw new IllegalStateException("Cannot drop " + CEILING_DATABASE, e);
            }
        }
    }

    /**
     * Steps per second of a fixed integer loop on one thread, over a table that stays in a core's
     * own cache: what one core of the machine does now, with no I/O, no lock and no other process of
     * the suite in it. The guests report no steal, so this is what shows a slower phase of the host
     * apart from a slower suite (a host can need a third more CPU for the same work for an hour). It
     * does not see a slowdown outside the core's own cache (16 % more CPU per order has come with the
     * figure unchanged), and it can move without the suite (473–758 from run to run on one host, the
     * CPU per order unchanged).
     * Compare it between runs of the same command only: the JIT (C1 or C2) and the CPU model
     * change it.
     */
    public static double oneCoreStepsPerSecond(Duration duration) {
        // Shared with the pool's thread, so the JIT cannot drop the loop's stores.
        int[] table = new int[CORE_TABLE_INTS];
        return perSecond(1, duration, client -> {
            long deadline = System.nanoTime() + duration.toNanos();
            long steps = 0;
            int x = 1;
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < table.length; i++) {
                    x = x * 1_664_525 + 1_013_904_223;
                    table[i] += x ^ (x >>> 13);
                }
                steps += table.length;
            }
            return steps;
        });
    }

    /**
     * Nanoseconds per read of one thread following a random cycle through a table larger than the
     * caches, each read's address given by the read before: the memory's latency as a process of the
     * suite sees it now. The partner of {@link #oneCoreStepsPerSecond}: a host's slower phase (10–25 %
     * more CPU per order in every process, the core's figure unchanged) has come with 174–206 ns here
     * against 158–172 ns while the suite ran at its best. Compare it between runs on one
     * {@link MachineDescription} only: it does not tell CPU generations apart (a Zen 3 read 150–184 ns
     * and needed 60 % more CPU per order than a Zen 4). Its table takes 64 MB of the caller's heap for
     * the call.
     */
    public static double memoryReadNanos(Duration duration) {
        int[] next = randomCycle(MEMORY_TABLE_INTS);
        double readsPerSecond = perSecond(1, duration, client -> {
            long deadline = System.nanoTime() + duration.toNanos();
            long reads = 0;
            int position = 0;
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < 4096; i++) {
                    position = next[position];
                }
                reads += 4096;
            }
            // Never true (the table holds indexes), but the JIT cannot know: the reads stay.
            if (position < 0) {
                throw new IllegalStateException("negative index " + position);
            }
            return reads;
        });
        return 1e9 / readsPerSecond;
    }

    /**
     * One cycle through all {@code size} slots in random order (Sattolo's shuffle): following
     * {@code next[i]} from any slot visits every slot before it comes back, so no part of the table
     * is read twice in a row and the hardware's prefetchers cannot guess the next address.
     */
    static int[] randomCycle(int size) {
        int[] next = new int[size];
        Arrays.setAll(next, i -> i);
        SplittableRandom random = new SplittableRandom(MEMORY_CYCLE_SEED);
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int swapped = next[i];
            next[i] = next[j];
            next[j] = swapped;
        }
        return next;
    }

    /** Sync sends per second of {@value #MESSAGE_BYTES}-byte messages to one topic, one producer shared by the threads. */
    public static double brokerSendsPerSecond(String nameServer, RPCHook rpcHook, int concurrency, Duration duration) {
        DefaultMQProducer producer = new DefaultMQProducer("perf_ceiling_producer", rpcHook);
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName("perf-ceiling-" + ProcessHandle.current().pid());
        byte[] body = new byte[MESSAGE_BYTES];
        Arrays.fill(body, "x".getBytes(StandardCharsets.US_ASCII)[0]);
        try {
            producer.start();
            send(producer, body); // creates the topic (auto-create) before the clock starts
            return perSecond(concurrency, duration, client -> {
                long deadline = System.nanoTime() + duration.toNanos();
                long sends = 0;
                while (System.nanoTime() < deadline) {
                    send(producer, body);
                    sends++;
                }
                return sends;
            });
        } catch (MQClientException e) {
            throw new IllegalStateException("The ceiling producer did not start", e);
        } catch (Exception e) {
            throw new IllegalStateException("The first ceiling send failed", e);
        } finally {
            producer.shutdown();
        }
    }

    private static void send(DefaultMQProducer producer, byte[] body) throws Exception {
        SendResult result = producer.send(new Message(CEILING_TOPIC, body));
        if (result.getSendStatus() != SendStatus.SEND_OK) {
            throw new IllegalStateException("Ceiling send answered " + result.getSendStatus());
        }
    }

    @FunctionalInterface
    private interface Worker {
        /** Runs until its deadline; returns how many operations it completed. */
        long run(int client) throws Exception;
    }

    private static double perSecond(int concurrency, Duration duration, Worker worker) {
        ExecutorService threads = Executors.newFixedThreadPool(concurrency);
        long started = System.nanoTime();
        try {
            List<Future<Long>> counts = new ArrayList<>();
            for (int client = 0; client < concurrency; client++) {
                int id = client;
                counts.add(threads.submit(() -> worker.run(id)));
            }
            long total = 0;
            for (Future<Long> count : counts) {
                total += count.get();
            }
            return total / ((System.nanoTime() - started) / 1e9);
        } catch (ExecutionException e) {
            throw new IllegalStateException("A ceiling worker failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while measuring a ceiling", e);
        } finally {
            threads.shutdownNow();
        }
    }
}
