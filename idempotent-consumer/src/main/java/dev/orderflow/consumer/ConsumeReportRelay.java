package dev.orderflow.consumer;

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

import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Sends the {@code consume_report} outbox to {@code order_result_topic} through the outgoing
 * channel {@value #CHANNEL} (sync send, defaults in this jar's
 * {@code META-INF/microprofile-config.properties}) and deletes each row once the broker answered
 * SEND_OK. At-least-once: a crash after the send and before the delete sends the row again, so
 * the status service applies reports idempotently (by KEYS {@code <orderId>:<eventType>:<consumer>}).
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

    private static final Logger LOG = Logger.getLogger(ConsumeReportRelay.class);

    private final EntityManager entityManager;
    private final Emitter<String> emitter;
    private final IdempotentConsumerConfig.Reporting config;
    private final Semaphore wakeUps = new Semaphore(0);
    private volatile Thread worker;
    private volatile boolean running;

    @Inject
    public ConsumeReportRelay(EntityManager entityManager, @Channel(CHANNEL) Emitter<String> emitter,
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
     * Sends every pending report, batch by batch, deleting each after SEND_OK; stops at the first
     * send that fails (the rest waits for the next round).
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
        @SuppressWarnings("unchecked")
        List<PendingReport> rows = entityManager.createNativeQuery(
                "select * from consume_report order by id limit ?1 for update skip locked", PendingReport.class)
                .setParameter(1, config.batchSize())
                .getResultList();
        List<Long> sent = new ArrayList<>(rows.size());
        boolean stopped = false;
        for (PendingReport row : rows) {
            try {
                send(row);
                sent.add(row.id);
            } catch (InterruptedException e) {
                // Stopping: keep what was sent (deleted below), the caller sees the interrupt flag.
                Thread.currentThread().interrupt();
                stopped = true;
                break;
            } catch (ExecutionException | TimeoutException e) {
                LOG.warnf(e, "Could not send report %s (outbox row %d); it stays for the next round", row.reportKey,
                        row.id);
                stopped = true;
                break;
            }
        }
        deleteSent(sent);
        return new Batch(rows.size(), sent.size(), stopped);
    }

    private void deleteSent(List<Long> ids) {
        if (!ids.isEmpty()) {
            entityManager.createQuery("delete from PendingReport r where r.id in :ids").setParameter("ids", ids)
                    .executeUpdate();
        }
    }

    /**
     * Sends one report and waits for the broker's SEND_OK, without deleting it. {@link #relayPending()}
     * deletes after this returns; on its own it is what a relay that crashed before the delete did.
     *
     * @throws ExecutionException wrapping the send failure (broker unreachable, not SEND_OK)
     * @throws TimeoutException   when the broker did not answer within {@code send-timeout}
     */
    public void send(PendingReport row) throws InterruptedException, ExecutionException, TimeoutException {
        CompletableFuture<Void> stored = new CompletableFuture<>();
        OutgoingRocketMQMetadata metadata = OutgoingRocketMQMetadata.builder()
                .withTag(row.consumer)
                .withKeys(row.reportKey)
                .build();
        emitter.send(Message.of(row.body, Metadata.of(metadata),
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
