package dev.orderflow.points.service;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Query;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.orderflow.consumer.LockedEntities;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.points.config.PointsConfig;
import dev.orderflow.points.domain.PointsAccount;
import dev.orderflow.points.domain.PointsLedgerEntry;

/**
 * Points changes. {@link #credit} and {@link #reverse} (of a cancel or a fail) run inside the consumer
 * pipeline's JTA transaction (with the consume_record row and the result report); Hibernate writes the
 * changed accounts and the new ledger entries at its commit, each kind as one JDBC batch.
 */
@ApplicationScoped
public class PointsService {

    private static final LockedEntities.Table<PointsAccount> ACCOUNTS = new LockedEntities.Table<>(PointsAccount.class,
            "points_account", "customer_id", account -> account.customerId,
            payload -> payload instanceof OrderEvent event ? List.of(event.customerId()) : List.of(),
            PointsService::createAccounts);

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
        Instant now = now();
        lockedAccount(create.customerId()).add(points, now);
        record(create.orderId(), create.customerId(), PointsLedgerEntry.Reason.ORDER_CREDIT, points, now, null);
        return Outcome.done();
    }

    /**
     * Takes back exactly what the order's create credited (its ORDER_CREDIT entry, whatever the rate
     * is now), once, for its cancel (ORDER_REVERSAL) or because it failed (ORDER_FAILURE_REVERSAL,
     * noting the failure). Nothing credited → nothing reversed; an order is reversed at most once,
     * whichever event asks.
     */
    public Outcome reverse(OrderEvent cancelOrFail) {
        String orderId = cancelOrFail.orderId();
        Optional<PointsLedgerEntry> credit = entryOf(orderId, PointsLedgerEntry.Reason.ORDER_CREDIT);
        if (credit.isEmpty() || entryOf(orderId, PointsLedgerEntry.Reason.ORDER_REVERSAL).isPresent()
                || entryOf(orderId, PointsLedgerEntry.Reason.ORDER_FAILURE_REVERSAL).isPresent()) {
            return Outcome.done();
        }
        Instant now = now();
        lockedAccount(credit.get().customerId).add(-credit.get().points, now);
        OrderFailure failure = cancelOrFail.failure();
        record(orderId, credit.get().customerId, failure == null ? PointsLedgerEntry.Reason.ORDER_REVERSAL
                : PointsLedgerEntry.Reason.ORDER_FAILURE_REVERSAL, -credit.get().points, now,
                failure == null ? null : failure.consumer() + " " + failure.failureClass() + ": " + failure.reason());
        return Outcome.done();
    }

    /** The customer's balance; 0 for a customer never credited (no account yet). */
    public long balance(String customerId) {
        return PointsAccount.<PointsAccount> findByIdOptional(customerId).map(account -> account.balance).orElse(0L);
    }

    /**
     * The customer's account, locked by this transaction (created at 0 if missing). The first call of a
     * transaction locks the accounts of every customer of the pipeline's batch at once (see
     * {@link LockedEntities}).
     */
    private PointsAccount lockedAccount(String customerId) {
        return LockedEntities.of(transactions, entityManager, ACCOUNTS).row(customerId);
    }

    /** Creates the missing accounts at 0; inserting or touching a row takes its lock. Native: JPA has no upsert. */
    private static void createAccounts(EntityManager entityManager, List<String> customers) {
        StringBuilder rows = new StringBuilder();
        for (int i = 1; i <= customers.size(); i++) {
            rows.append(i == 1 ? "" : ", ").append("(?").append(i).append(", 0, ?").append(customers.size() + 1).append(')');
        }
        Query create = entityManager.createNativeQuery("insert into points_account (customer_id, balance, updated_at)"
                + " values " + rows + " on duplicate key update customer_id = customer_id");
        for (int i = 1; i <= customers.size(); i++) {
            create.setParameter(i, customers.get(i - 1));
        }
        create.setParameter(customers.size() + 1, now()).executeUpdate();
    }

    private void record(String orderId, String customerId, PointsLedgerEntry.Reason reason, long points, Instant at,
            String note) {
        PointsLedgerEntry entry = new PointsLedgerEntry();
        entry.orderId = orderId;
        entry.reason = reason;
        entry.customerId = customerId;
        entry.points = points;
        entry.createdAt = at;
        entry.note = note;
        entityManager.persist(entry);
    }

    /**
     * The order's entry for {@code reason}, read with a lock so that it sees the latest commit even from a
     * transaction whose snapshot predates it (see CancelBeforeCreateGuard). The query first flushes the
     * entries this transaction wrote, so it finds those too.
     */
    private Optional<PointsLedgerEntry> entryOf(String orderId, PointsLedgerEntry.Reason reason) {
        return PointsLedgerEntry.<PointsLedgerEntry> find("orderId = ?1 and reason = ?2", orderId, reason)
                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
