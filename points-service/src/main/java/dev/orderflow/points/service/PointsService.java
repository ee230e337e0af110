package dev.orderflow.points.service;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import dev.orderflow.consumer.Outcome;
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

    private final EntityManager entityManager;
    private final BigDecimal rate;

    @Inject
    public PointsService(EntityManager entityManager, PointsConfig config) {
        this.entityManager = entityManager;
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
        Optional<PointsLedgerEntry> credit = PointsLedgerEntry.of(cancel.orderId(), PointsLedgerEntry.Reason.ORDER_CREDIT);
        if (credit.isEmpty()
                || PointsLedgerEntry.of(cancel.orderId(), PointsLedgerEntry.Reason.ORDER_REVERSAL).isPresent()) {
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

    /** Creates the account if missing and locks it (two first orders of one customer cannot both insert it). */
    private PointsAccount lockAccount(String customerId) {
        entityManager.createNativeQuery("insert into points_account (customer_id, balance, updated_at)"
                + " values (?1, 0, ?2) on duplicate key update customer_id = customer_id")
                .setParameter(1, customerId)
                // UTC wall-clock time, as Hibernate stores instants here (quarkus.hibernate-orm.jdbc.timezone=UTC).
                .setParameter(2, Timestamp.valueOf(LocalDateTime.ofInstant(now(), ZoneOffset.UTC)))
                .executeUpdate();
        return PointsAccount.findById(customerId, LockModeType.PESSIMISTIC_WRITE);
    }

    private static void record(String orderId, String customerId, PointsLedgerEntry.Reason reason, long points,
            Instant at) {
        PointsLedgerEntry entry = new PointsLedgerEntry();
        entry.orderId = orderId;
        entry.customerId = customerId;
        entry.reason = reason;
        entry.points = points;
        entry.createdAt = at;
        entry.persist();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
