package dev.orderflow.order.filequeue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.OrderDatabase;
import dev.orderflow.order.rest.OrderRequests;
import dev.orderflow.order.service.OrderService;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The file queue's workers against the real create path ({@link OrderService#create}: real MariaDB,
 * in-process RocketMQ broker), in temporary folders under target/. The application's own poller is
 * off (default), so each test drives its workers itself.
 */
@QuarkusTest
class FileQueueTest {

    private static final Path BASE = Path.of("target", "file-queue-test").toAbsolutePath();

    @Inject
    OrderService orders;

    @Inject
    OrderRequests requests;

    @Inject
    MeterRegistry registry;

    /** One per JVM, as in the application: the gauges are bound to the first instance registered. */
    private static FileQueueMetrics metrics;

    private synchronized FileQueueMetrics metrics() {
        if (metrics == null) {
            metrics = new FileQueueMetrics(registry);
        }
        return metrics;
    }

    private static String json(String customerId, String sku, int quantity) {
        return "{\"customerId\":\"" + customerId + "\",\"phone\":\"+819012345678\",\"items\":[{\"sku\":\"" + sku
                + "\",\"quantity\":" + quantity + ",\"unitPrice\":\"1.50\"}]}";
    }

    private static FileQueueFolders folders() {
        return FileQueueFolders.under(BASE.resolve(UUID.randomUUID().toString())).open();
    }

    private FileQueueWorker worker(String name, FileQueueFolders folders, boolean requireOkFlag, Duration lease) {
        return new FileQueueWorker(name, folders,
                new FileQueueWorker.Settings(requireOkFlag, 100, lease, 1_000_000, Duration.ofMillis(200),
                        Duration.ofSeconds(2)),
                new FileOrderParser(requests), orders::create, metrics(), Clock.systemUTC());
    }

    private FileQueueWorker worker(FileQueueFolders folders) {
        return worker("w", folders, false, Duration.ofMinutes(10));
    }

    /** The writer's convention: temporary name, then an atomic rename. */
    private static void drop(FileQueueFolders folders, String name, String content) throws IOException {
        Path temporary = folders.inbox().resolve(name + ".tmp");
        Files.writeString(temporary, content);
        Files.move(temporary, folders.inbox().resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void twoInstancesRacingOverAThousandFilesCreateOneOrderPerFile() throws Exception {
        int fileCount = 1000;
        String customer = "FQR-" + UUID.randomUUID();
        FileQueueFolders folders = folders();
        for (int i = 0; i < fileCount; i++) {
            drop(folders, String.format("order-%04d.json", i), json(customer, "SKU-" + i, 1 + i % 7));
        }
        // Two instances with two poller threads each: four claimers racing over the same inbox/.
        List<FileQueueWorker> instanceA = List.of(worker("a0", folders, false, Duration.ofMinutes(10)),
                worker("a1", folders, false, Duration.ofMinutes(10)));
        List<FileQueueWorker> instanceB = List.of(worker("b0", folders, false, Duration.ofMinutes(10)),
                worker("b1", folders, false, Duration.ofMinutes(10)));
        List<FileQueueWorker> all = new ArrayList<>(instanceA);
        all.addAll(instanceB);
        ExecutorService pool = Executors.newFixedThreadPool(all.size());
        long started = System.nanoTime();
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (FileQueueWorker w : all) {
                runs.add(pool.submit(() -> {
                    while (!names(folders.inbox()).isEmpty()) {
                        w.pollOnce();
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(5, java.util.concurrent.TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        System.out.printf("file queue race: %d files, 4 claimers, %d ms (%.1f files/s); claimed a0=%d a1=%d b0=%d b1=%d%n",
                fileCount, took.toMillis(), fileCount * 1000.0 / Math.max(1, took.toMillis()),
                all.get(0).claimed(), all.get(1).claimed(), all.get(2).claimed(), all.get(3).claimed());

        assertThat(OrderDatabase.ordersOfCustomer(customer)).isEqualTo(fileCount);
        assertThat(names(folders.done())).hasSize(fileCount);
        assertThat(names(folders.inbox())).isEmpty();
        assertThat(names(folders.processing())).isEmpty();
        assertThat(names(folders.error())).isEmpty();
        // Each file was claimed exactly once in total: a double claim would count twice.
        assertThat(all.stream().mapToLong(FileQueueWorker::claimed).sum()).isEqualTo(fileCount);
        assertThat(instanceA.stream().mapToLong(FileQueueWorker::claimed).sum()).isPositive();
        assertThat(instanceB.stream().mapToLong(FileQueueWorker::claimed).sum()).isPositive();
    }

    @Test
    void halfWrittenFilesAreNeverTaken() throws Exception {
        String customer = "FQH-" + UUID.randomUUID();
        FileQueueFolders folders = folders();
        FileQueueWorker worker = worker(folders);
        Files.writeString(folders.inbox().resolve("a.json.tmp"), json(customer, "SKU-1", 1).substring(0, 20));
        Files.writeString(folders.inbox().resolve(".b.json"), json(customer, "SKU-2", 1).substring(0, 20));

        assertThat(worker.pollOnce()).isZero();
        assertThat(worker.pollOnce()).isZero();
        assertThat(names(folders.inbox())).containsExactly(".b.json", "a.json.tmp");

        // Writer finishes a.json.tmp and renames it: now it is taken.
        Files.writeString(folders.inbox().resolve("a.json.tmp"), json(customer, "SKU-1", 1));
        Files.move(folders.inbox().resolve("a.json.tmp"), folders.inbox().resolve("a.json"),
                StandardCopyOption.ATOMIC_MOVE);
        assertThat(worker.pollOnce()).isEqualTo(1);
        assertThat(names(folders.done())).containsExactly("a.json");
        assertThat(names(folders.inbox())).containsExactly(".b.json");
        assertThat(OrderDatabase.ordersOfCustomer(customer)).isEqualTo(1);
    }

    @Test
    void withOkFlagsAFileWithoutItsFlagIsNeverTakenAndTheFlagIsConsumed() throws Exception {
        String customer = "FQK-" + UUID.randomUUID();
        FileQueueFolders folders = folders();
        FileQueueWorker worker = worker("ok", folders, true, Duration.ofMinutes(10));
        // Being written (truncated JSON), no flag yet.
        Files.writeString(folders.inbox().resolve("c.json"), json(customer, "SKU-1", 1).substring(0, 30));

        assertThat(worker.pollOnce()).isZero();
        assertThat(worker.pollOnce()).isZero();
        assertThat(names(folders.inbox())).containsExactly("c.json");
        assertThat(names(folders.error())).isEmpty();

        Files.writeString(folders.inbox().resolve("c.json"), json(customer, "SKU-1", 1));
        Files.createFile(folders.inbox().resolve("c.json.ok"));
        assertThat(worker.pollOnce()).isEqualTo(1);

        assertThat(names(folders.inbox())).isEmpty();
        assertThat(names(folders.done())).containsExactly("c.json");
        assertThat(OrderDatabase.ordersOfCustomer(customer)).isEqualTo(1);
    }

    @Test
    void theSameContentTwiceCreatesOneOrderAndOtherContentUnderTheSameNameAnother() throws Exception {
        String customer = "FQD-" + UUID.randomUUID();
        FileQueueFolders folders = folders();
        FileQueueWorker worker = worker(folders);
        String content = json(customer, "SKU-1", 2);
        String csv = FileOrderParser.CSV_HEADER + "\nR1," + customer + ",+819012345678,SKU-9,1,2.00\n";

        drop(folders, "x.json", content);
        drop(folders, "x.csv", csv);
        assertThat(worker.pollOnce()).isEqualTo(2);
        drop(folders, "x.json", content);            // same name, same content
        drop(folders, "copy-of-x.json", content);    // other name, same content
        drop(folders, "x-again.csv", csv);           // CSV re-dropped
        assertThat(worker.pollOnce()).isEqualTo(3);

        assertThat(OrderDatabase.ordersOfCustomer(customer)).isEqualTo(2);
        assertThat(names(folders.done())).hasSize(5).contains("x.json", "copy-of-x.json", "x.csv", "x-again.csv")
                .anyMatch(n -> n.startsWith("x.json.")); // the second x.json, renamed to keep the first
        assertThat(names(folders.error())).isEmpty();

        drop(folders, "x.json", json(customer, "SKU-1", 3)); // same name, different content
        assertThat(worker.pollOnce()).isEqualTo(1);
        assertThat(OrderDatabase.ordersOfCustomer(customer)).isEqualTo(3);
    }

    @Test
    void aCsvBatchCreatesOneOrderPerOrderRef() throws Exception {
        String customer = "FQC-" + UUID.randomUUID();
        FileQueueFolders folders = folders();
        drop(folders, "batch.csv", FileOrderParser.CSV_HEADER + "\r\n"
                + "A," + customer + ",+819012345678,SKU-1,2,1.25\r\n"
                + "A," + customer + ",+819012345678,\"SKU,2\",1,10\r\n"
                + "B," + customer + ",+819012345678,SKU-3,4,0.50\r\n");

        assertThat(worker(folders).pollOnce()).isEqualTo(1);

        assertThat(names(folders.done())).containsExactly("batch.csv");
        assertThat(OrderDatabase.ordersOfCustomer(customer)).isEqualTo(2);
        assertThat(OrderDatabase.count("select count(*) from orders where customer_id = ? and amount = 12.50", customer))
                .isEqualTo(1);
        assertThat(OrderDatabase.count("select count(*) from order_items i join orders o on o.id = i.order_id "
                + "where o.customer_id = ? and i.sku = 'SKU,2'", customer)).isEqualTo(1);
    }

    @Test
    void malformedFilesGoToErrorWithReasonsAndNothingOfThemIsWritten() throws Exception {
        String customer = "FQM-" + UUID.randomUUID();
        FileQueueFolders folders = folders();
        drop(folders, "broken.json", "{\"customerId\":\"" + customer + "\",");
        drop(folders, "typo.json", json(customer, "SKU-1", 1).replace("quantity", "quantiy"));
        // Order A is valid and comes first; line 4 is bad: the whole file fails, A is not created either.
        drop(folders, "bad-line.csv", FileOrderParser.CSV_HEADER + "\n"
                + "A," + customer + ",+819012345678,SKU-1,2,1.25\n"
                + "B," + customer + ",+819012345678,SKU-2,1,1.00\n"
                + "B," + customer + ",+819012345678,SKU-3,two,1.00\n");
        drop(folders, "zero.csv", FileOrderParser.CSV_HEADER + "\n"
                + "A," + customer + ",+819012345678,SKU-1,2,1.25\n"
                + "C," + customer + ",+819012345678,SKU-2,0,1.00\n");
        drop(folders, "header.csv", "ref,customer\nA,B\n");
        drop(folders, "notes.txt", "hello");

        assertThat(worker(folders).pollOnce()).isEqualTo(6);

        assertThat(names(folders.error())).containsExactlyInAnyOrder("broken.json", "broken.json.reason", "typo.json",
                "typo.json.reason", "bad-line.csv", "bad-line.csv.reason", "zero.csv", "zero.csv.reason",
                "header.csv", "header.csv.reason", "notes.txt", "notes.txt.reason");
        assertThat(Files.readString(folders.error().resolve("broken.json.reason")))
                .contains("class: format", "exception: dev.orderflow.order.filequeue.FileRejectedException",
                        "malformed JSON at line 1");
        assertThat(Files.readString(folders.error().resolve("typo.json.reason"))).contains("items[0].quantiy");
        assertThat(Files.readString(folders.error().resolve("bad-line.csv.reason")))
                .contains("class: format", "line 4: quantity: must be an integer");
        assertThat(Files.readString(folders.error().resolve("zero.csv.reason")))
                .contains("line 3: quantity: must be greater than 0");
        assertThat(Files.readString(folders.error().resolve("header.csv.reason"))).contains("line 1: header must be");
        assertThat(Files.readString(folders.error().resolve("notes.txt.reason"))).contains("unsupported file type");
        assertThat(names(folders.done())).isEmpty();
        assertThat(names(folders.processing())).isEmpty();
        assertThat(OrderDatabase.ordersOfCustomer(customer)).isZero();
    }

    @Test
    void aFileLeftInProcessingByACrashIsRecoveredWithoutADuplicate() throws Exception {
        String customer = "FQX-" + UUID.randomUUID();
        FileQueueFolders folders = folders();
        String csv = FileOrderParser.CSV_HEADER + "\nA," + customer + ",+819012345678,SKU-1,1,1.00\n"
                + "B," + customer + ",+819012345678,SKU-2,1,1.00\n";
        // The crashed instance claimed the file, created order A and died before order B and the move to done/.
        drop(folders, "in-flight.csv", csv);
        List<FileOrder> parsed = new FileOrderParser(requests).parse("in-flight.csv", csv.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        orders.create(parsed.get(0).order(), parsed.get(0).idempotencyKey());
        Files.move(folders.inbox().resolve("in-flight.csv"), folders.processing().resolve("in-flight.csv"),
                StandardCopyOption.ATOMIC_MOVE);
        Files.setLastModifiedTime(folders.processing().resolve("in-flight.csv"),
                FileTime.from(Instant.now().minus(Duration.ofMinutes(5))));

        // A young file in processing/ belongs to a live poller: left alone.
        Files.writeString(folders.processing().resolve("young.json"), json(customer, "SKU-Y", 1));
        FileQueueWorker restarted = worker("restarted", folders, false, Duration.ofMinutes(1));
        assertThat(restarted.recoverStale()).isEqualTo(1);
        assertThat(restarted.pollOnce()).isEqualTo(1);

        assertThat(names(folders.done())).containsExactly("in-flight.csv");
        assertThat(names(folders.processing())).containsExactly("young.json");
        assertThat(OrderDatabase.ordersOfCustomer(customer)).isEqualTo(2); // A once, B once
    }

    @Test
    void aFailingMoveToErrorBacksOffInsteadOfRereadingTheFile() throws Exception {
        FileQueueFolders folders = folders();
        FileQueueWorker worker = worker(folders);
        // error/ is replaced by a plain file: every move into it fails.
        Files.delete(folders.error());
        Files.writeString(folders.error(), "not a directory");
        drop(folders, "bad.json", "not json");
        double failuresBefore = registry.counter("orderflow.file.queue.move.failures", "target", "error").count();

        assertThat(worker.pollOnce()).isEqualTo(1);
        assertThat(worker.pendingMoves()).isEqualTo(1);
        assertThat(names(folders.processing())).containsExactly("bad.json");
        // Polls inside the back-off neither re-read nor re-claim the file, nor retry the move.
        assertThat(worker.pollOnce()).isZero();
        assertThat(registry.counter("orderflow.file.queue.move.failures", "target", "error").count())
                .isEqualTo(failuresBefore + 1);
        Thread.sleep(250);
        assertThat(worker.pollOnce()).isZero(); // retried after 200 ms, failed again: delay now 400 ms
        assertThat(registry.counter("orderflow.file.queue.move.failures", "target", "error").count())
                .isEqualTo(failuresBefore + 2);
        assertThat(registry.get("orderflow.file.queue.stuck.files").gauge().value()).isGreaterThanOrEqualTo(1);

        Files.delete(folders.error());
        Files.createDirectory(folders.error());
        Thread.sleep(450);
        worker.pollOnce();

        assertThat(worker.pendingMoves()).isZero();
        assertThat(names(folders.error())).containsExactly("bad.json", "bad.json.reason");
        assertThat(names(folders.processing())).isEmpty();
    }
}
