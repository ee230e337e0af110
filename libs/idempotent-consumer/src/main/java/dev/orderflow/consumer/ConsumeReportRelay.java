package dev.orderflow.consumer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.hibernate.StatelessSession;
import org.jboss.logging.Logger;

import dev.orderflow.rocketmq.OutgoingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Sends the {@code consume_report} outbox to {@code order_result_topic} through the outgoing
 * channel {@value #CHANNEL} (sync send, defaults in this jar's
 * {@code META-INF/microprofile-config.properties}) and deletes the rows once the broker answered
 * SEND_OK. Reports go out as RocketMQ batches of up to {@code batch-size}
 * ({@link OutgoingRocketMQBatchMetadata}: one broker round trip, each report still its own message
 * with its KEYS and tag), split only when the bodies would come near the broker's 4 MiB batch
 * limit. A failed or unanswered send deletes nothing: the rows stay. At-least-once: a crash after
 * the send and before the delete sends the rows again, so the status service applies reports
 * idempotently (by KEYS {@code <orderId>:<eventType>:<consumer>}).
 *
 * <p>One thread per instance, started at boot when reporting is enabled. Two ways a row goes out:
 * <ul>
 * <li><b>From memory</b>, the usual way: {@link ConsumeReporter} hands over the rows of each commit
 * ({@link #committed}); the relay sends them without reading them back and deletes, after SEND_OK,
 * everything its rounds sent within {@code delete-delay} in one transaction. Reading
 * the rows back in a transaction of its own for every committed batch would make the relay a
 * consumer's largest cost.</li>
 * <li><b>By the sweep</b>, at start and every {@code sweep-interval}: the rows nobody handed over
 * (written just before a crash or restart, left by a failed send or delete, or written by an
 * instance that does not relay), in transactions that take them with
 * {@code FOR UPDATE SKIP LOCKED}, so relays of several instances do not send the same row at the
 * same time. It leaves alone the rows this relay holds in memory, and, while the relay runs, rows
 * younger than one {@code sweep-interval} (they are being handed over).</li>
 * </ul>
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

    /** Most ids in one DELETE statement. */
    private static final int MAX_DELETE_IDS = 1000;

    /** The outbox rows, through the stateless session of each of the relay's transactions. */
    private final StatelessSession outbox;
    /** Object: a batch's payload is the List of report bodies. */
    private final Emitter<Object> emitter;
    private final IdempotentConsumerConfig.Reporting config;
    private final Semaphore wakeUps = new Semaphore(0);
    /** Rows handed over after their commit, not yet taken by a round. */
    private final Queue<PendingReport> committed = new ConcurrentLinkedQueue<>();
    /**
     * Ids of the rows this relay holds in memory (handed over, being sent, or sent and not yet
     * deleted): the sweep leaves them alone.
     */
    private final Set<Long> held = ConcurrentHashMap.newKeySet();
    /** Sent, SEND_OK, not yet deleted (a failed delete is tried again next round). Relay thread only. */
    private final List<Long> sentNotDeleted = new ArrayList<>();
    /** When {@link #sentNotDeleted} is due for deletion: {@code delete-delay} after its oldest row's send. Relay thread only. */
    private long deleteDue;
    private volatile Thread worker;
    private volatile boolean running;

    @Inject
    public ConsumeReportRelay(StatelessSession outbox,
            @Channel(CHANNEL) Emitter<Object> emitter, IdempotentConsumerConfig config) {
        this.outbox = outbox;
        this.emitter = emitter;
        this.config = config.reporting();
    }

    void start(@Observes StartupEvent event) {
        if (config.deleteDelay().isNegative() || config.deleteDelay().compareTo(config.sweepInterval()) >= 0) {
            throw new IllegalStateException("orderflow.idempotent-consumer.reporting.delete-delay ("
                    + config.deleteDelay() + ") must be at least PT0S and shorter than sweep-interval ("
                    + config.sweepInterval() + "): other instances' sweeps send the rows older than that again");
        }
        if (!config.relayEnabled()) {
            LOG.debugf("Consume report relay not started (relay-enabled=false)");
            return;
        }
        running = true;
        Thread thread = new Thread(this::run, "consume-report-relay");
        thread.setDaemon(true);
        worker = thread;
        thread.start();
        LOG.infof("Consume report relay started: the outbox (reports of consumer %s) goes out through channel %s",
                config.consumer().orElse("none"), CHANNEL);
    }

    /**
     * Lets the relay send and delete what was handed over (up to {@code send-timeout}), then
     * interrupts it; whatever is left waits in the outbox for a sweep.
     */
    void stop(@Observes ShutdownEvent event) {
        running = false;
        Thread thread = worker;
        if (thread != null) {
            wakeUps.release();
            try {
                thread.join(config.sendTimeout().toMillis());
                if (thread.isAlive()) {
                    thread.interrupt();
                    thread.join(config.sendTimeout().toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Hands the relay rows whose transaction has just committed, to be sent from memory. Without a
     * running relay (disabled on this instance, not started, or stopping) the rows wait in the
     * outbox for a relay's sweep. Cheap; any thread.
     */
    public void committed(List<PendingReport> rows) {
        if (!running || rows.isEmpty()) {
            return;
        }
        for (PendingReport row : rows) {
            held.add(row.id);
        }
        committed.addAll(rows);
        wakeUps.release();
    }

    private void run() {
        long nextSweep = System.nanoTime(); // at once: rows left by a crash or by other instances
        while (running) {
            try {
                relayCommitted();
                if (!sentNotDeleted.isEmpty() && System.nanoTime() - deleteDue >= 0) {
                    deleteSent();
                }
                if (System.nanoTime() - nextSweep >= 0) {
                    relayPending();
                    nextSweep = System.nanoTime() + config.sweepInterval().toNanos();
                }
                long next = sentNotDeleted.isEmpty() || deleteDue - nextSweep >= 0 ? nextSweep : deleteDue;
                if (committed.isEmpty()) {
                    wakeUps.tryAcquire(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS);
                }
                // One round takes everything handed over: wake-ups that piled up meanwhile are served by it.
                wakeUps.drainPermits();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // Database or broker unavailable: the rows stay and a later round or sweep tries again.
                LOG.warnf(e, "Consume report relay round failed; retrying in %s", config.sweepInterval());
                if (!pause()) {
                    return;
                }
            }
        }
        // Stopping: a last round for what was handed over (nothing is handed over any more), and
        // every sent row deleted now rather than after delete-delay.
        try {
            relayCommitted();
            deleteSent();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warnf(e, "Last consume report relay round failed; the rows wait in the outbox for a sweep");
        }
    }

    /**
     * Sends the rows handed over since the last round (at most ten batches' worth, so that deletes
     * keep pace under a steady stream); the sent rows are deleted together {@code delete-delay}
     * after the first of them was sent, or at once when they reach the most one DELETE takes.
     *
     * @throws InterruptedException when the relay is being stopped (what was not sent waits for a sweep)
     */
    private void relayCommitted() throws InterruptedException {
        List<PendingReport> round = new ArrayList<>();
        for (PendingReport row; round.size() < config.batchSize() * 10 && (row = committed.poll()) != null;) {
            round.add(row);
        }
        int sent = 0;
        try {
            sent = sendInOrder(round);
        } finally {
            if (sent > 0 && sentNotDeleted.isEmpty()) {
                deleteDue = System.nanoTime() + config.deleteDelay().toNanos();
            }
            round.subList(0, sent).forEach(row -> sentNotDeleted.add(row.id));
            // Not sent (failed, stopping, or the send threw): no longer held, the sweep takes them from the outbox.
            round.subList(sent, round.size()).forEach(row -> held.remove(row.id));
        }
        if (sentNotDeleted.size() >= MAX_DELETE_IDS) {
            deleteSent();
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("consume report relay stopped");
        }
    }

    /**
     * Deletes the sent rows in one transaction of their own (nothing else is read or written in
     * it). A failure leaves them held, for the next round.
     */
    private void deleteSent() {
        if (sentNotDeleted.isEmpty()) {
            return;
        }
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                for (int from = 0; from < sentNotDeleted.size(); from += MAX_DELETE_IDS) {
                    delete(sentNotDeleted.subList(from, Math.min(sentNotDeleted.size(), from + MAX_DELETE_IDS)));
                }
            });
        } catch (RuntimeException e) {
            throw new IllegalStateException("Could not delete " + sentNotDeleted.size()
                    + " sent report(s) from the outbox; they stay held and are deleted by a later round", e);
        }
        sentNotDeleted.forEach(held::remove);
        sentNotDeleted.clear();
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
     * The sweep: sends every report in the outbox that this relay does not hold in memory, in
     * transactions of up to {@code batch-size} rows in id order, deleting a transaction's rows after
     * their SEND_OK; stops at the first send that fails (its rows and the rest wait for the next
     * sweep). Rows another relay holds locked are skipped.
     *
     * @return how many reports were sent and deleted
     * @throws InterruptedException when the relay is being stopped
     */
    public int relayPending() throws InterruptedException {
        int total = 0;
        long after = 0;
        // A running relay gets its rows handed over right after their commit, and the sweep's locking
        // read can return a row the moment its transaction commits, before the hand-over: so it
        // leaves rows younger than one sweep interval to the in-memory way (a relay that is not
        // running holds nothing, and takes every row).
        Instant createdBefore = running ? Instant.now().minus(config.sweepInterval()) : Instant.now().plusSeconds(60);
        // Nearly every sweep finds nothing: one plain read says so without a locking read
        // (a row committed just after it waits for the next sweep).
        if (QuarkusTransaction.requiringNew().call(() -> outbox.createNativeQuery(
                "select 1 from consume_report where created_at < :createdBefore limit 1", Integer.class)
                .setParameter("createdBefore", createdBefore).getResultList()).isEmpty()) {
            return 0;
        }
        while (true) {
            long from = after;
            Batch batch = QuarkusTransaction.requiringNew().call(() -> relayBatch(from, createdBefore));
            total += batch.sent();
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("consume report relay stopped");
            }
            if (batch.stopped() || batch.fetched() < config.batchSize()) {
                return total;
            }
            // Ids only grow: the next transaction starts after this one's rows, even those it skipped as held.
            after = batch.lastId();
        }
    }

    private Batch relayBatch(long afterId, Instant createdBefore) {
        // Native: HQL has no SKIP LOCKED.
        List<PendingReport> fetched = outbox.createNativeQuery("select * from consume_report where id > :afterId"
                + " and created_at < :createdBefore order by id limit :limit for update skip locked", PendingReport.class)
                .setParameter("afterId", afterId).setParameter("createdBefore", createdBefore)
                .setParameter("limit", config.batchSize()).getResultList();
        List<PendingReport> rows = fetched.stream().filter(row -> !held.contains(row.id)).toList();
        int sent = sendInOrder(rows);
        if (sent > 0) {
            delete(rows.subList(0, sent).stream().map(row -> row.id).toList());
        }
        long lastId = fetched.isEmpty() ? afterId : fetched.get(fetched.size() - 1).id;
        return new Batch(fetched.size(), sent, sent < rows.size(), lastId);
    }

    /**
     * Sends {@code rows} in id order, in batches of up to {@code batch-size} reports and
     * {@link #MAX_BATCH_BYTES}, each waiting for its SEND_OK; stops at the first batch that fails
     * (logged; its rows stay in the outbox) or at an interrupt (the flag is set again for the caller).
     *
     * @return how many rows, from the first, were sent
     */
    private int sendInOrder(List<PendingReport> rows) {
        int sent = 0;
        for (List<PendingReport> part : bySize(rows, config.batchSize())) {
            try {
                send(part);
            } catch (InterruptedException e) {
                // Stopping: the unanswered part stays (it may be sent twice), what was sent before is deleted.
                Thread.currentThread().interrupt();
                return sent;
            } catch (ExecutionException | TimeoutException e) {
                LOG.warnf(e, "Could not send %d report(s) (outbox rows %d to %d); they stay in the outbox",
                        part.size(), part.get(0).id, part.get(part.size() - 1).id);
                return sent;
            }
            sent += part.size();
        }
        return sent;
    }

    /**
     * Deletes the rows of these ids, in the current transaction. Native: Hibernate translates an HQL
     * statement again whenever its list parameter's length changes, as it does here every time.
     */
    private void delete(List<Long> ids) {
        outbox.createNativeMutationQuery("delete from consume_report where id in (:ids)").setParameterList("ids", ids)
                .executeUpdate();
    }

    /**
     * The rows in id order, cut into parts of at most {@code maxRows} whose estimated batch size
     * stays under {@link #MAX_BATCH_BYTES}.
     */
    private static List<List<PendingReport>> bySize(List<PendingReport> rows, int maxRows) {
        List<List<PendingReport>> parts = new ArrayList<>();
        List<PendingReport> part = new ArrayList<>();
        long bytes = 0;
        for (PendingReport row : rows) {
            long size = utf8Length(row.body) + utf8Length(row.reportKey) + utf8Length(row.consumer)
                    + MESSAGE_OVERHEAD_BYTES;
            if (!part.isEmpty() && (part.size() == maxRows || bytes + size > MAX_BATCH_BYTES)) {
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

    /** What one sweep transaction did; {@code lastId} is the highest id it fetched. */
    private record Batch(int fetched, int sent, boolean stopped, long lastId) {
    }
}
