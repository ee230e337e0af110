package dev.orderflow.status.service;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.status.config.StatusServiceConfig;
import dev.orderflow.status.domain.OrderState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;

/**
 * Long-polling requests waiting for an order to leave PENDING. A waiter is a future in memory: no
 * thread waits and no request polls the database. It is completed
 * <ul>
 * <li>right after this instance commits a change that makes the order non-PENDING
 * ({@link OrderStateChanged}, observed after commit), or</li>
 * <li>by one shared periodic query over all waited-on orders, for changes another instance
 * committed ({@code orderflow.status.long-poll.cross-instance-check-every}).</li>
 * </ul>
 * The request re-reads the status when its future completes (or at its timeout).
 */
@ApplicationScoped
public class StatusWaiters {

    private static final Logger LOG = Logger.getLogger(StatusWaiters.class);

    private final Map<String, Set<Waiter>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final int maxWaiters;
    private final StatusQueries queries;

    @Inject
    public StatusWaiters(StatusServiceConfig config, StatusQueries queries, MeterRegistry registry) {
        this.maxWaiters = config.longPoll().maxWaiters();
        this.queries = queries;
        Gauge.builder("orderflow.status.long.poll.waiters", count, AtomicInteger::get)
                .description("Requests long-polling for an order status on this instance")
                .register(registry);
    }

    /**
     * Registers a waiter for {@code orderId}; register before reading the status, so that a change
     * committed between the read and the registration is not missed.
     *
     * @throws TooManyWaitersException at the configured maximum
     */
    public Waiter register(String orderId) {
        if (count.incrementAndGet() > maxWaiters) {
            count.decrementAndGet();
            throw new TooManyWaitersException(maxWaiters);
        }
        Waiter waiter = new Waiter(orderId, new CompletableFuture<>());
        // compute (not computeIfAbsent + add): atomic with remove() dropping an emptied set.
        waiting.compute(orderId, (id, set) -> {
            Set<Waiter> waiters = set != null ? set : ConcurrentHashMap.newKeySet();
            waiters.add(waiter);
            return waiters;
        });
        return waiter;
    }

    /** Forgets a waiter (answered, timed out or the client went away); idempotent. */
    public void remove(Waiter waiter) {
        waiting.computeIfPresent(waiter.orderId(), (id, set) -> {
            if (set.remove(waiter)) {
                count.decrementAndGet();
            }
            return set.isEmpty() ? null : set;
        });
    }

    /** Completes every waiter of {@code orderId}. */
    public void wake(String orderId) {
        Set<Waiter> waiters = waiting.get(orderId);
        if (waiters != null) {
            waiters.forEach(w -> w.woken().complete(null));
        }
    }

    /** Waiters on this instance, for tests and the gauge. */
    public int size() {
        return count.get();
    }

    void onCommittedChange(@Observes(during = TransactionPhase.AFTER_SUCCESS) OrderStateChanged change) {
        if (change.state() != OrderState.PENDING) {
            wake(change.orderId());
        }
    }

    /** The one shared check for changes committed by other instances. */
    @Scheduled(every = "${orderflow.status.long-poll.cross-instance-check-every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void checkChangesByOtherInstances() {
        if (waiting.isEmpty()) {
            return;
        }
        try {
            queries.settledAmong(Set.copyOf(waiting.keySet())).keySet().forEach(this::wake);
        } catch (RuntimeException e) {
            // The waiters still answer at their timeout; the next round tries again.
            LOG.warnf(e, "Cross-instance status check for %d waited-on orders failed", waiting.size());
        }
    }

    /** One waiting request. */
    public record Waiter(String orderId, CompletableFuture<Void> woken) {
    }
}
