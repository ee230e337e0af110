package dev.orderflow.sms.outbox;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;

import org.hibernate.Timeouts;
import org.hibernate.jpa.SpecHints;

import dev.orderflow.order.events.OrderEventType;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The dispatcher's access to {@code sms_outbox}: claiming due rows and recording send results,
 * each in a short transaction of its own (no transaction is open while the gateway is called).
 *
 * <h2>Claims</h2>
 * A claim is an update of the row: {@code attempts + 1}, a fresh {@code claim_token}, and
 * {@code next_attempt_at} pushed to the end of the claim lease. The row stays PENDING, so if the
 * claiming instance dies mid-send, the row is due again when the lease ends and is re-sent with the
 * same Idempotency-Key. Due rows are selected {@code FOR UPDATE SKIP LOCKED} (MariaDB 10.6+): two
 * instances claiming at the same time get disjoint rows and never wait for each other. Results are
 * recorded only under the claim's token, so an instance whose lease ran out cannot overwrite the
 * result of the instance that claimed the row after it.
 */
@ApplicationScoped
public class SmsOutbox {

    private final EntityManager entityManager;

    @Inject
    public SmsOutbox(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    /**
     * Claims up to {@code max} due rows, oldest due first. A cancellation notice is not due while its
     * order's confirmation is still PENDING (the customer must get the confirmation first).
     */
    public List<ClaimedSms> claimDue(int max, Duration lease) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            List<SmsOutboxEntry> due = entityManager.createQuery("""
                    from SmsOutboxEntry e
                    where e.status = :pending and e.nextAttemptAt <= :now
                      and not (e.eventType = :cancel and exists (
                          from SmsOutboxEntry c
                          where c.orderId = e.orderId and c.eventType = :create and c.status = :pending))
                    order by e.nextAttemptAt, e.id""", SmsOutboxEntry.class)
                    .setParameter("pending", SmsStatus.PENDING)
                    .setParameter("now", now)
                    .setParameter("cancel", OrderEventType.CANCEL)
                    .setParameter("create", OrderEventType.CREATE)
                    .setMaxResults(max)
                    .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                    .setHint(SpecHints.HINT_SPEC_LOCK_TIMEOUT, Timeouts.SKIP_LOCKED_MILLI)
                    .getResultList();
            Instant leaseEnd = now.plus(lease);
            return due.stream().map(entry -> {
                entry.attempts++;
                entry.claimToken = UUID.randomUUID().toString();
                entry.nextAttemptAt = leaseEnd;
                entry.updatedAt = now;
                return new ClaimedSms(entry.id, entry.claimToken, entry.businessKey, entry.phone, entry.text,
                        entry.attempts);
            }).toList();
        });
    }

    /**
     * The gateway accepted these texts: SENT, final, in one transaction and one statement (a
     * statement per text was most of the dispatcher's cost under load).
     *
     * @return how many were recorded; fewer than given when claims had been lost (another claim
     *         took the row over after the lease ended; its result wins)
     */
    public int markSent(List<ClaimedSms> claims) {
        if (claims.isEmpty()) {
            return 0;
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            // Claim tokens are unique per claim: matching the token alone is matching (row, claim).
            return entityManager.createQuery("""
                    update SmsOutboxEntry e set e.status = :sent, e.sentAt = :now, e.updatedAt = :now,
                        e.lastError = null, e.claimToken = null
                    where e.claimToken in :tokens""")
                    .setParameter("sent", SmsStatus.SENT)
                    .setParameter("now", now)
                    .setParameter("tokens", claims.stream().map(ClaimedSms::claimToken).toList())
                    .executeUpdate();
        });
    }

    /** A transient failure: PENDING again, due at {@code retryAt}. @return false when the claim had been lost */
    public boolean markForRetry(ClaimedSms claim, String error, Instant retryAt) {
        return QuarkusTransaction.requiringNew().call(() -> entityManager.createQuery("""
                update SmsOutboxEntry e set e.nextAttemptAt = :retryAt, e.updatedAt = :now,
                    e.lastError = :error, e.claimToken = null
                where e.id = :id and e.claimToken = :token""")
                .setParameter("retryAt", retryAt.truncatedTo(ChronoUnit.MILLIS))
                .setParameter("now", now())
                .setParameter("error", truncate(error))
                .setParameter("id", claim.id())
                .setParameter("token", claim.claimToken())
                .executeUpdate() == 1);
    }

    /** Refused, or out of attempts: FAILED, final. @return false when the claim had been lost */
    public boolean markFailed(ClaimedSms claim, String error) {
        return QuarkusTransaction.requiringNew().call(() -> entityManager.createQuery("""
                update SmsOutboxEntry e set e.status = :failed, e.updatedAt = :now,
                    e.lastError = :error, e.claimToken = null
                where e.id = :id and e.claimToken = :token""")
                .setParameter("failed", SmsStatus.FAILED)
                .setParameter("now", now())
                .setParameter("error", truncate(error))
                .setParameter("id", claim.id())
                .setParameter("token", claim.claimToken())
                .executeUpdate() == 1);
    }

    /** Every row of an order, oldest first. */
    public List<SmsOutboxEntry> ofOrder(String orderId) {
        return QuarkusTransaction.requiringNew().call(() -> entityManager.createQuery(
                "from SmsOutboxEntry e where e.orderId = :orderId order by e.createdAt, e.id", SmsOutboxEntry.class)
                .setParameter("orderId", orderId)
                .getResultList());
    }

    private static String truncate(String error) {
        return error.length() <= SmsOutboxEntry.MAX_ERROR_LENGTH ? error
                : error.substring(0, SmsOutboxEntry.MAX_ERROR_LENGTH);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
