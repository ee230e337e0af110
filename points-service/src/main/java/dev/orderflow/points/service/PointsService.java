package dev.orderflow.points.service;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import javax.sql.DataSource;

import dev.orderflow.consumer.ConsumeBatch;
import dev.orderflow.consumer.CounterRows;
import dev.orderflow.consumer.LockedRows;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.points.config.PointsConfig;
import dev.orderflow.points.domain.PointsLedgerEntry;
import dev.orderflow.sql.BatchSql;

/**
 * Points changes. {@link #credit} and {@link #reverse} (of a cancel or a fail) run inside the consumer pipeline's
 * transaction (with the consume_record row and the result report).
 */
@ApplicationScoped
public class PointsService {

    /** Accounts are created at 0 when first locked: a customer's first order opens it. */
    private static final CounterRows.Table ACCOUNT_TABLE = new CounterRows.Table("points_account", "customer_id",
            "balance", true);

    private final DataSource dataSource;
    private final TransactionSynchronizationRegistry transactions;
    private final BigDecimal rate;

    @Inject
    public PointsService(DataSource dataSource, TransactionSynchronizationRegistry transactions,
            PointsConfig config) {
        this.dataSource = dataSource;
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
        LockedRows<String, CounterRows.Row> accounts = lockedAccounts();
        Instant now = now();
        CounterRows.add(accounts, accounts.row(create.customerId()), points, now);
        accounts.writeUnlessDeferred();
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
        LockedRows<String, CounterRows.Row> accounts = lockedAccounts();
        Instant now = now();
        CounterRows.add(accounts, accounts.row(credit.get().customerId), -credit.get().points, now);
        accounts.writeUnlessDeferred();
        OrderFailure failure = cancelOrFail.failure();
        record(orderId, credit.get().customerId, failure == null ? PointsLedgerEntry.Reason.ORDER_REVERSAL
                : PointsLedgerEntry.Reason.ORDER_FAILURE_REVERSAL, -credit.get().points, now,
                failure == null ? null : failure.consumer() + " " + failure.failureClass() + ": " + failure.reason());
        return Outcome.done();
    }

    /** The customer's balance; 0 for a customer never credited (no account yet). */
    public long balance(String customerId) {
        return BatchSql.select(dataSource, "select balance from " + ACCOUNT_TABLE.name() + " where customer_id = ?",
                List.of(customerId), row -> row.getLong(1)).stream().findFirst().orElse(0L);
    }

    /**
     * Creates the account if missing and locks it (two first orders of one customer cannot both
     * insert it), read and written with plain JDBC. In a batch of the consumer pipeline the first
     * call creates and locks the accounts of every customer in the batch at once, in customer-id
     * order, so two batches consumed at the same time take them one after the other, never
     * crosswise; the batch's balance changes are written in one statement at its end.
     */
    private LockedRows<String, CounterRows.Row> lockedAccounts() {
        return CounterRows.of(transactions, dataSource, ACCOUNT_TABLE,
                payload -> payload instanceof OrderEvent event ? List.of(event.customerId()) : List.of());
    }

    private void record(String orderId, String customerId, PointsLedgerEntry.Reason reason, long points, Instant at,
            String note) {
        PointsLedgerEntry entry = new PointsLedgerEntry();
        entry.note = note;
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
            PointsLedgerEntry.insert(dataSource, List.of(entry));
        }
    }

    /** The order's entry for {@code reason}: committed (locking read) or still to be written by this batch. */
    private Optional<PointsLedgerEntry> entryOf(String orderId, PointsLedgerEntry.Reason reason) {
        Optional<PointsLedgerEntry> pending = ConsumeBatch.current(transactions).flatMap(batch -> pendingEntries(batch)
                .stream().filter(e -> e.orderId.equals(orderId) && e.reason == reason).findFirst());
        return pending.isPresent() ? pending : PointsLedgerEntry.of(dataSource, orderId, reason);
    }

    private List<PointsLedgerEntry> pendingEntries(ConsumeBatch batch) {
        return batch.deferredRows(PointsLedgerEntry.class, rows -> PointsLedgerEntry.insert(dataSource, rows));
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
