package dev.orderflow.consumer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

import dev.orderflow.rocketmq.OutgoingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.sql.BatchSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Sends the {@code consume_report} outbox to {@code order_result_topic} through the outgoing
 * channel {@value #CHANNEL} (sync send, defaults in this jar's
 * {@code META-INF/microprofile-config.properties}) and deletes the rows once the broker answered
 * SEND_OK. A relay round takes up to {@code batch-size} rows and sends them as one RocketMQ batch
 * ({@link OutgoingRocketMQBatchMetadata}: one broker round trip, each report still its own message
 * with its KEYS and tag), split only when the rows' bodies would come near the broker's 4 MiB
 * batch limit; then one SQL statement deletes the sent rows. A failed or unanswered send deletes
 * nothing: the rows stay for the next round. At-least-once: a crash after the send and before the
 * delete sends the rows again, so the status service applies reports idempotently (by KEYS
 * {@code <orderId>:<eventType>:<consumer>}).
 *
 * <p>One thread per instance, started at boot when reporting is enabled: woken right after each
 * commit that wrote a report ({@link #wakeUp()}, from a JTA afterCompletion), and every
 * {@code sweep-interval} for rows nobody woke it for (written just before a crash, left by a
 * failed send, or written by an instance that does not relay). Rows are taken with
 * {@code FOR UPDATE SKIP LOCKED}, so relays of several instances do not send the same row at the
 * same time.
 */
@ApplicationScoped
public class ConsumeReportRelay {

    /** The outgoing channel the reports are sent through. */
    public static final String CHANNEL = "consume-reports";

    /**
     * Estimated encoded size at which a round's rows are split into another batch message: well
     * under the broker's and client's 4 MiB limit, so an estimate off by a few bytes per report
     * never gets a batch refused. Bodies are at most 4000 characters, so 100 rows rarely reach it.
     */
    static final int MAX_BATCH_BYTES = 3 * 1024 * 1024;

    /** Per-message framing and properties (UNIQ_KEY, WAIT, separators) in RocketMQ's batch encoding, rounded up. */
    private static final int MESSAGE_OVERHEAD_BYTES = 200;

    private static final Logger LOG = Logger.getLogger(ConsumeReportRelay.class);

    private final EntityManager entityManager;
    /** Object: a batch's payload is the List of report bodies. */
    private final Emitter<Object> emitter;
    private final IdempotentConsumerConfig.Reporting config;
    private final Semaphore wakeUps = new Semaphore(0);
    private volatile Thread worker;
    private volatile boolean running;

    @Inject
    public ConsumeReportRelay(EntityManager entityManager, @Channel(CHANNEL) Emitter<Object> emitter,
            IdempotentConsumerConfig config) {
        this.entityManager = entityManager;
        this.emitter = emitter;
        this.config = config.reporting();
    }

    void start(@Observes StartupEvent event) {
        if (config.consumer().isEmpty() || !config.relayEnabled()) {
            LOG.debugf("Consume report relay not started (reporting consumer %s, relay enabled %s)",
                    config.consumer().orElse("unset"), config.relayEnabled());
            return;
        }
        running = true;
        Thread thread = new Thread(this::run, "consume-report-relay");
        thread.setDaemon(true);
        worker = thread;
        thread.start();
        LOG.infof("Consume report relay started: reports of consumer %s go out through channel %s",
                config.consumer().get(), CHANNEL);
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        Thread thread = worker;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(config.sendTimeout().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Asks the relay to send what is pending now instead of at the next sweep. Cheap; any thread. */
    public void wakeUp() {
        wakeUps.release();
    }

    private void run() {
        while (running) {
            try {
                relayPending();
                wakeUps.tryAcquire(config.sweepInterval().toMillis(), TimeUnit.MILLISECONDS);
                // One round sends everything pending: wake-ups that piled up meanwhile are served by it.
                wakeUps.drainPermits();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // Database or broker unavailable: the rows stay and the next sweep tries again.
                LOG.warnf(e, "Consume report relay round failed; retrying in %s", config.sweepInterval());
                if (!pause()) {
                    return;
                }
            }
        }
    }

    private boolean pause() {
        try {
            Thread.sleep(config.sweepInterval().toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Sends every pending report, round by round, deleting a round's rows after its SEND_OK; stops
     * at the first send that fails (its rows and the rest wait for the next round).
     *
     * @return how many reports were sent and deleted
     * @throws InterruptedException when the relay is being stopped
     */
    public int relayPending() throws InterruptedException {
        int total = 0;
        while (true) {
            Batch batch = QuarkusTransaction.requiringNew().call(this::relayBatch);
            total += batch.sent();
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("consume report relay stopped");
            }
            if (batch.stopped() || batch.fetched() < config.batchSize()) {
                return total;
            }
        }
    }

    private Batch relayBatch() {
        // Plain JDBC: loading the rows as Hibernate entities was a good part of the relay's CPU.
        List<PendingReport> rows = BatchSql.select(entityManager, "select id, consumer_group, message_key,"
                + " report_key, consumer, outcome, body, created_at from consume_report order by id limit ?"
                + " for update skip locked", List.of(config.batchSize()), row -> {
                    PendingReport report = new PendingReport();
                    report.id = row.getLong("id");
                    report.consumerGroup = row.getString("consumer_group");
                    report.messageKey = row.getString("message_key");
                    report.reportKey = row.getString("report_key");
                    report.consumer = row.getString("consumer");
                    report.outcome = row.getString("outcome");
                    report.body = row.getString("body");
                    report.createdAt = BatchSql.instant(row, "created_at");
                    return report;
                });
        List<Long> sent = new ArrayList<>(rows.size());
        boolean stopped = false;
        for (List<PendingReport> part : bySize(rows)) {
            try {
                send(part);
                part.forEach(row -> sent.add(row.id));
            } catch (InterruptedException e) {
                // Stopping: the unanswered part stays (it may be sent twice), what was sent before is deleted below.
                Thread.currentThread().interrupt();
                stopped = true;
                break;
            } catch (ExecutionException | TimeoutException e) {
                LOG.warnf(e, "Could not send %d report(s) (outbox rows %d to %d); they stay for the next round",
                        part.size(), part.get(0).id, part.get(part.size() - 1).id);
                stopped = true;
                break;
            }
        }
        deleteSent(sent);
        return new Batch(rows.size(), sent.size(), stopped);
    }

    /** The rows in id order, cut into parts whose estimated batch size stays under {@link #MAX_BATCH_BYTES}. */
    private static List<List<PendingReport>> bySize(List<PendingReport> rows) {
        List<List<PendingReport>> parts = new ArrayList<>();
        List<PendingReport> part = new ArrayList<>();
        long bytes = 0;
        for (PendingReport row : rows) {
            long size = utf8Length(row.body) + utf8Length(row.reportKey) + utf8Length(row.consumer)
                    + MESSAGE_OVERHEAD_BYTES;
            if (!part.isEmpty() && bytes + size > MAX_BATCH_BYTES) {
                parts.add(part);
                part = new ArrayList<>();
                bytes = 0;
            }
            part.add(row);
            bytes += size;
        }
        if (!part.isEmpty()) {
            parts.add(part);
        }
        return parts;
    }

    private static int utf8Length(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * One plain SQL statement for all the round's rows: the JPQL bulk delete it replaces, with an
     * IN list of varying size, was 6.7 % of a consumer service's CPU in load profiles (issue #10).
     */
    private void deleteSent(List<Long> ids) {
        if (ids.isEmpty()) {
            return;
        }
        BatchSql.update(entityManager, "delete from consume_report where id in (" + BatchSql.parameters(ids.size())
                + ")", ids);
    }

    /**
     * Sends one report and waits for the broker's SEND_OK, without deleting it. {@link #relayPending()}
     * deletes after its send returns; on its own it is what a relay that crashed before the delete did.
     *
     * @throws ExecutionException wrapping the send failure (broker unreachable, not SEND_OK)
     * @throws TimeoutException   when the broker did not answer within {@code send-timeout}
     */
    public void send(PendingReport row) throws InterruptedException, ExecutionException, TimeoutException {
        send(List.of(row));
    }

    /**
     * Sends {@code rows} as one batch message (all stored or none) and waits up to
     * {@code send-timeout} for the broker's SEND_OK, without deleting them.
     */
    private void send(List<PendingReport> rows) throws InterruptedException, ExecutionException, TimeoutException {
        List<String> bodies = new ArrayList<>(rows.size());
        List<OutgoingRocketMQMetadata> elements = new ArrayList<>(rows.size());
        for (PendingReport row : rows) {
            bodies.add(row.body);
            elements.add(OutgoingRocketMQMetadata.builder().withTag(row.consumer).withKeys(row.reportKey).build());
        }
        CompletableFuture<Void> stored = new CompletableFuture<>();
        emitter.send(Message.<Object> of(bodies, Metadata.of(OutgoingRocketMQBatchMetadata.of(elements)),
                () -> {
                    stored.complete(null);
                    return CompletableFuture.completedFuture(null);
                },
                failure -> {
                    stored.completeExceptionally(failure);
                    return CompletableFuture.completedFuture(null);
                }));
        stored.get(config.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** What one relay transaction did. */
    private record Batch(int fetched, int sent, boolean stopped) {
    }
}
