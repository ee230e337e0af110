package dev.orderflow.sms.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.sms.config.SmsServiceConfig;
import dev.orderflow.sms.gateway.SmsGateway;
import dev.orderflow.sms.gateway.SmsGatewayUnavailableException;
import dev.orderflow.sms.gateway.SmsRejectedException;
import dev.orderflow.sms.gateway.SmsRequest;
import dev.orderflow.sms.intent.TextsDue;
import dev.orderflow.sms.outbox.ClaimedSms;
import dev.orderflow.sms.outbox.SmsOutbox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Sends PENDING outbox rows through the {@link SmsGateway}, separately from the consumer (a slow
 * or failing gateway never holds up consumption, and a consumed message never waits for a send).
 *
 * <ul>
 * <li><b>When</b>: a sweep every {@code sweep-interval} (retries whose back-off has passed, rows of
 * a crashed instance), plus a wake-up right after a consume transaction that wrote a row commits,
 * after a finished send that was not accepted or when the last sweep left due rows for want of
 * free slots, and {@code record-delay} after an accepted send that no other sweep followed. Sweeps
 * run on one thread, never overlapping.</li>
 * <li><b>How many</b>: at most {@code concurrency} sends at a time; a sweep claims only as many
 * rows as there are free send slots, so claimed rows never wait in a queue while their lease runs.</li>
 * <li><b>Safely with several instances</b>: rows are claimed in the database ({@link SmsOutbox}).</li>
 * <li><b>Results</b>: accepted → SENT (recorded by the next sweep for every text accepted since the
 * last one, in one statement and in the transaction of that sweep's claim, at most
 * {@code record-delay} after the send); refused (4xx) → FAILED at once; transient (timeout, 5xx,
 * connection) → PENDING again after an exponential back-off, FAILED after {@code max-attempts}.
 * Every attempt of a row carries the same Idempotency-Key (its business key), so a retry after a
 * send whose answer was lost does not text the customer twice at a provider that honours it.</li>
 * </ul>
 */
@ApplicationScoped
public class SmsDispatcher {

    private static final Logger LOG = Logger.getLogger(SmsDispatcher.class);

    private final SmsOutbox outbox;
    private final SmsGateway gateway;
    private final RetryPolicy retryPolicy;
    private final SmsServiceConfig.Dispatch settings;
    private final Duration longestSend;

    private final Semaphore freeSendSlots;
    /** Texts the gateway accepted whose SENT is not recorded yet: the next sweep records them together. */
    private final ConcurrentLinkedQueue<ClaimedSms> acceptedUnrecorded = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sweepQueued = new AtomicBoolean();
    /** A sweep is scheduled {@code record-delay} ahead for the accepted texts. */
    private final AtomicBoolean recordScheduled = new AtomicBoolean();
    /**
     * The last sweep claimed as many rows as there were free send slots: more may be due, so a
     * finished send wakes a sweep at once rather than after {@code record-delay}.
     */
    private volatile boolean claimsLimitedBySlots;
    private final AtomicInteger threadNumber = new AtomicInteger();
    private ScheduledExecutorService sweeper;
    private ExecutorService senders;

    private final Counter sent;
    private final Counter retried;
    private final Counter failed;
    private final Timer gatewayLatency;

    @Inject
    public SmsDispatcher(SmsOutbox outbox, SmsGateway gateway, SmsServiceConfig config, MeterRegistry registry) {
        this.outbox = outbox;
        this.gateway = gateway;
        this.retryPolicy = RetryPolicy.of(config.retry());
        this.settings = config.dispatch();
        this.longestSend = config.gateway().connectTimeout().plus(config.gateway().readTimeout());
        this.freeSendSlots = new Semaphore(settings.concurrency());
        this.sent = Counter.builder("sms.sends").tag("outcome", "sent")
                .description("Texts the gateway accepted").register(registry);
        this.retried = Counter.builder("sms.sends").tag("outcome", "retry")
                .description("Send attempts that failed transiently and will be retried").register(registry);
        this.failed = Counter.builder("sms.sends").tag("outcome", "failed")
                .description("Texts given up on (refused, or out of attempts)").register(registry);
        this.gatewayLatency = Timer.builder("sms.gateway.latency")
                .description("Duration of one gateway call, whatever its result").register(registry);
    }

    void start(@Observes StartupEvent event) {
        if (settings.concurrency() < 1) {
            throw new IllegalStateException("sms-service.dispatch.concurrency must be at least 1");
        }
        if (settings.recordDelay().isNegative()) {
            throw new IllegalStateException("sms-service.dispatch.record-delay must be at least PT0S, not "
                    + settings.recordDelay());
        }
        if (settings.claimLease().compareTo(longestSend.plus(settings.recordDelay())) <= 0) {
            // A shorter lease would let a second instance claim a row that is still being sent or recorded.
            throw new IllegalStateException("sms-service.dispatch.claim-lease (" + settings.claimLease()
                    + ") must exceed the gateway's connect-timeout + read-timeout (" + longestSend
                    + ") plus sms-service.dispatch.record-delay (" + settings.recordDelay() + ")");
        }
        sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> thread(runnable, "sms-dispatch-sweep"));
        senders = Executors.newFixedThreadPool(settings.concurrency(),
                runnable -> thread(runnable, "sms-dispatch-send-" + threadNumber.incrementAndGet()));
        sweeper.scheduleWithFixedDelay(this::sweep, 0, settings.sweepInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Lets in-flight sends finish (bounded by the gateway timeouts); unfinished rows are re-sent after their lease. */
    void stop(@Observes ShutdownEvent event) {
        if (sweeper == null) {
            return;
        }
        sweeper.shutdownNow();
        senders.shutdown();
        try {
            if (!senders.awaitTermination(longestSend.toMillis() + 1000, TimeUnit.MILLISECONDS)) {
                LOG.warn("SMS sends still running at shutdown; their rows are re-sent after the claim lease");
                senders.shutdownNow();
            }
            // Texts accepted since the last sweep: recorded now, not re-sent after the lease.
            recordAccepted();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            senders.shutdownNow();
        }
    }

    /** Wakes the dispatcher once the transaction that made texts due has committed. */
    void onTextsDue(@Observes(during = TransactionPhase.AFTER_SUCCESS) TextsDue due) {
        wakeUp();
    }

    /** Asks for a sweep now; several requests while one is queued collapse into that one. */
    public void wakeUp() {
        if (sweeper == null || sweeper.isShutdown() || !sweepQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            sweeper.execute(() -> {
                sweepQueued.set(false);
                sweep();
            });
        } catch (RejectedExecutionException e) {
            // Shutting down between the check and the submit: the next instance's sweep finds the rows.
            sweepQueued.set(false);
            LOG.debug("Dispatcher stopped; wake-up ignored");
        }
    }

    /**
     * Records the texts accepted since the last sweep and claims as many due rows as there are free
     * send slots, in one transaction ({@link SmsOutbox#markSentAndClaimDue}).
     */
    private void sweep() {
        List<ClaimedSms> accepted = drainAccepted();
        List<ClaimedSms> claimed;
        try {
            int freeSlots = freeSendSlots.availablePermits();
            SmsOutbox.SentAndClaimed round = outbox.markSentAndClaimDue(accepted, freeSlots, settings.claimLease());
            warnAboutLostClaims(accepted, round.recorded());
            claimed = round.claimed();
            claimsLimitedBySlots = claimed.size() >= freeSlots;
        } catch (RuntimeException e) {
            errorUnrecorded(accepted, e);
            // A failed sweep (e.g. database down) must not cancel the periodic schedule: the next one retries.
            LOG.warnf(e, "SMS dispatch sweep failed; retrying in %s", settings.sweepInterval());
            return;
        }
        try {
            for (ClaimedSms claim : claimed) {
                // Only this thread takes permits, and it claimed no more rows than were free: this never blocks.
                freeSendSlots.acquireUninterruptibly();
                senders.execute(() -> {
                    boolean textAccepted = false;
                    try {
                        textAccepted = send(claim);
                    } finally {
                        freeSendSlots.release();
                        afterSend(textAccepted);
                    }
                });
            }
        } catch (RuntimeException e) {
            // The executor refused (shutting down): the claimed rows are sent again after their lease.
            LOG.warnf(e, "SMS dispatch could not start its sends; the rows are sent again after the claim lease");
        }
    }

    /**
     * A send finished and freed its slot. A sweep now when rows were left unclaimed for want of
     * slots, or when the text was not accepted: its result is recorded already, and a FAILED
     * confirmation makes its order's cancellation notice due. An accepted text otherwise waits up to
     * {@code record-delay} for a sweep to record its SENT with that sweep's claim.
     */
    private void afterSend(boolean accepted) {
        if (!accepted || claimsLimitedBySlots || settings.recordDelay().isZero()) {
            wakeUp();
        } else if (!acceptedUnrecorded.isEmpty() && recordScheduled.compareAndSet(false, true)) {
            try {
                sweeper.schedule(() -> {
                    recordScheduled.set(false);
                    // A sweep since then recorded them all: nothing to do, not even a read.
                    if (!acceptedUnrecorded.isEmpty()) {
                        sweep();
                    }
                }, settings.recordDelay().toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // Stopping: stop() records what was accepted.
                recordScheduled.set(false);
            }
        }
    }

    /** @return whether the gateway accepted the text (its SENT is then recorded by a coming sweep) */
    private boolean send(ClaimedSms claim) {
        SmsRequest request = new SmsRequest(claim.businessKey(), claim.phone(), claim.text());
        long start = System.nanoTime();
        Exception failure = null;
        try {
            gateway.send(request);
        } catch (SmsRejectedException | SmsGatewayUnavailableException | RuntimeException e) {
            // RuntimeException: a gateway bug or an unexpected answer; the text may have gone out, so
            // it is treated like an outage (retried with the same key) rather than dropped.
            failure = e;
        } finally {
            gatewayLatency.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
        try {
            if (failure == null) {
                sent.increment();
                // Recorded by the next sweep, together with the others finished by then (afterSend).
                acceptedUnrecorded.add(claim);
                return true;
            } else if (failure instanceof SmsRejectedException) {
                failed.increment();
                LOG.warnf("SMS %s refused on attempt %d, not retried: %s", claim.businessKey(), claim.attempt(),
                        failure.getMessage());
                recordOrWarn(claim, outbox.markFailed(claim, "refused: " + failure.getMessage()), "FAILED");
            } else {
                transientFailure(claim, failure);
            }
        } catch (RuntimeException e) {
            // The row stays claimed; when its lease ends it is sent again with the same key, which the
            // provider dedupes. Nothing is lost, at worst one extra (deduplicated) call.
            LOG.errorf(e, "SMS %s: could not record the result of attempt %d; it is retried after the claim lease",
                    claim.businessKey(), claim.attempt());
        }
        return false;
    }

    /**
     * At shutdown: records SENT for every accepted text not yet recorded, in one transaction. When that fails
     * (database down) the rows stay claimed and are sent again after their lease with the same
     * Idempotency-Key, as when any result cannot be recorded.
     */
    private void recordAccepted() {
        List<ClaimedSms> accepted = drainAccepted();
        if (accepted.isEmpty()) {
            return;
        }
        try {
            warnAboutLostClaims(accepted, outbox.markSent(accepted));
        } catch (RuntimeException e) {
            errorUnrecorded(accepted, e);
        }
    }

    private static void errorUnrecorded(List<ClaimedSms> accepted, RuntimeException e) {
        if (!accepted.isEmpty()) {
            LOG.errorf(e, "SMS: could not record SENT for %s; they are sent again after the claim lease",
                    accepted.stream().map(ClaimedSms::businessKey).toList());
        }
    }

    /** The texts accepted and not yet recorded, taken out of the queue. */
    private List<ClaimedSms> drainAccepted() {
        List<ClaimedSms> accepted = new ArrayList<>();
        for (ClaimedSms claim; (claim = acceptedUnrecorded.poll()) != null;) {
            accepted.add(claim);
        }
        return accepted;
    }

    private static void warnAboutLostClaims(List<ClaimedSms> accepted, int recorded) {
        if (recorded < accepted.size()) {
            // Leases ran out and other claims took those rows over; their results win. The keys were the same.
            LOG.warnf("SMS: %d of %d claims were lost before SENT was recorded (%s)", accepted.size() - recorded,
                    accepted.size(), accepted.stream().map(ClaimedSms::businessKey).toList());
        }
    }

    private void transientFailure(ClaimedSms claim, Exception e) {
        String error = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        if (!retryPolicy.mayRetryAfter(claim.attempt())) {
            failed.increment();
            LOG.warnf(e, "SMS %s failed on its last attempt (%d): %s", claim.businessKey(), claim.attempt(), error);
            recordOrWarn(claim, outbox.markFailed(claim, "gave up after " + claim.attempt() + " attempts: " + error),
                    "FAILED");
            return;
        }
        retried.increment();
        Duration delay = retryPolicy.delayAfter(claim.attempt());
        LOG.infof("SMS %s attempt %d failed, retrying in %s: %s", claim.businessKey(), claim.attempt(), delay, error);
        recordOrWarn(claim, outbox.markForRetry(claim, error, Instant.now().plus(delay)), "PENDING (retry)");
    }

    private void recordOrWarn(ClaimedSms claim, boolean recorded, String result) {
        if (!recorded) {
            // Our lease ran out and another claim took the row over; its result wins. The key was the same.
            LOG.warnf("SMS %s: claim lost before its result (%s) was recorded", claim.businessKey(), result);
        }
    }

    private static Thread thread(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
