package dev.orderflow.points.service;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import dev.orderflow.consumer.ConsumeBatch;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.consumer.PipelineSql;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.points.config.PointsConfig;
import dev.orderflow.points.domain.PointsAccount;
import dev.orderflow.points.domain.PointsLedgerEntry;

/**
 * Points changes. {@link #credit} and {@link #reverse} run inside the consumer pipeline's
 * transaction (with the consume_record row and the result report).
 */
@ApplicationScoped
public class PointsService {

    /** Transaction resource: the accounts this transaction has locked (customer ids). */
    private static final Object LOCKED_ACCOUNTS = PointsService.class.getName() + ".lockedAccounts";

    private final EntityManager entityManager;
    private final TransactionSynchronizationRegistry transactions;
    private final BigDecimal rate;

    @Inject
    public PointsService(EntityManager entityManager, TransactionSynchronizationRegistry transactions,
            PointsConfig config) {
        this.entityManager = entityManager;
        this.transactions = transactions;
        this.rate = config.rate();
        if (rate.signum() < 0) {
            throw new IllegalArgumentException("points.rate must not be negative, was " + rate);
        }
    }

    /** Points an order of {@code amount} earns: {@code floor(amount × rate)}. */
    public long pointsFor(BigDecimal amount) {
        return amount.multiply(rate).setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    /** Credits the create's points to its customer (opening the account on the first order). */
    public Outcome credit(OrderEvent create) {
        long points = pointsFor(create.amount());
        PointsAccount account = lockAccount(create.customerId());
        Instant now = now();
        account.balance += points;
        account.updatedAt = now;
        record(create.orderId(), create.customerId(), PointsLedgerEntry.Reason.ORDER_CREDIT, points, now);
        return Outcome.done();
    }

    /**
     * Takes back exactly what the order's create credited (its ORDER_CREDIT entry, whatever the rate
     * is now), once. Nothing credited → nothing reversed.
     */
    public Outcome reverse(OrderEvent cancel) {
        Optional<PointsLedgerEntry> credit = entryOf(cancel.orderId(), PointsLedgerEntry.Reason.ORDER_CREDIT);
        if (credit.isEmpty() || entryOf(cancel.orderId(), PointsLedgerEntry.Reason.ORDER_REVERSAL).isPresent()) {
            return Outcome.done();
        }
        PointsAccount account = lockAccount(credit.get().customerId);
        Instant now = now();
        account.balance -= credit.get().points;
        account.updatedAt = now;
        record(cancel.orderId(), credit.get().customerId, PointsLedgerEntry.Reason.ORDER_REVERSAL,
                -credit.get().points, now);
        return Outcome.done();
    }

    /** The customer's balance; 0 for a customer never credited (no account yet). */
    @Transactional
    public long balance(String customerId) {
        return PointsAccount.<PointsAccount> findByIdOptional(customerId).map(a -> a.balance).orElse(0L);
    }

    /**
     * Creates the account if missing and locks it (two first orders of one customer cannot both
     * insert it). In a batch of the consumer pipeline the first call creates and locks the accounts
     * of every customer in the batch at once, in customer-id order, so two batches consumed at the
     * same time take them one after the other, never crosswise; later calls find the account in
     * the persistence context.
     */
    private PointsAccount lockAccount(String customerId) {
        @SuppressWarnings("unchecked")
        Set<String> locked = (Set<String>) transactions.getResource(LOCKED_ACCOUNTS);
        if (locked == null) {
            locked = new TreeSet<>();
            transactions.putResource(LOCKED_ACCOUNTS, locked);
            Set<String> customers = new TreeSet<>();
            ConsumeBatch.current(transactions).ifPresent(batch -> batch.payloads().forEach(payload -> {
                if (payload instanceof OrderEvent event) {
                    customers.add(event.customerId());
                }
            }));
            customers.add(customerId);
            lock(customers);
            locked.addAll(customers);
        } else if (!locked.contains(customerId)) {
            lock(Set.of(customerId));
            locked.add(customerId);
        }
        return PointsAccount.findById(customerId, LockModeType.PESSIMISTIC_WRITE);
    }

    private void lock(Set<String> customerIds) {
        Instant now = now();
        // Inserting or touching a row takes its exclusive lock until commit.
        PipelineSql.insertOrTouch(entityManager, "points_account", List.of("customer_id", "balance", "updated_at"),
                customerIds.stream().<List<?>> map(id -> List.of(id, 0L, now)).toList(), "customer_id");
        PointsAccount.<PointsAccount> find("customerId in ?1", customerIds).withLock(LockModeType.PESSIMISTIC_WRITE)
                .list();
    }

    private void record(String orderId, String customerId, PointsLedgerEntry.Reason reason, long points, Instant at) {
        PointsLedgerEntry entry = new PointsLedgerEntry();
        entry.orderId = orderId;
        entry.customerId = customerId;
        entry.reason = reason;
        entry.points = points;
        entry.createdAt = at;
        Optional<ConsumeBatch> batch = ConsumeBatch.current(transactions);
        if (batch.isPresent()) {
            // One multi-row INSERT at the batch's end instead of one INSERT per entry.
            pendingEntries(batch.get()).add(entry);
        } else {
            entry.persist();
        }
    }

    /** The order's entry for {@code reason}: committed (locking read) or still to be written by this batch. */
    private Optional<PointsLedgerEntry> entryOf(String orderId, PointsLedgerEntry.Reason reason) {
        Optional<PointsLedgerEntry> pending = ConsumeBatch.current(transactions).flatMap(batch -> pendingEntries(batch)
                .stream().filter(e -> e.orderId.equals(orderId) && e.reason == reason).findFirst());
        return pending.isPresent() ? pending : PointsLedgerEntry.of(orderId, reason);
    }

    private List<PointsLedgerEntry> pendingEntries(ConsumeBatch batch) {
        return batch.deferredRows(PointsLedgerEntry.class, rows -> PipelineSql.insert(entityManager, "points_ledger",
                List.of("order_id", "customer_id", "reason", "points", "created_at"),
                rows.stream().<List<?>> map(e -> List.of(e.orderId, e.customerId, e.reason, e.points, e.createdAt))
                        .toList()));
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
