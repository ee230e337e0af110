package dev.orderflow.sms.outbox;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.persistence.LockModeType;

import org.hibernate.jpa.SpecHints;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Sort;

/**
 * The dispatcher's access to {@code sms_outbox}: claiming due rows and recording send results in
 * short transactions (no transaction is open while the gateway is called); a round's SENT results
 * and its next claim share one ({@link #markSentAndClaimDue}).
 *
 * <h2>Claims</h2>
 * A claim is an update of the row: {@code attempts + 1}, a fresh {@code claim_token}, and
 * {@code next_attempt_at} pushed to the end of the claim lease. The row stays PENDING, so if the
 * claiming instance dies mid-send, the row is due again when the lease ends and is re-sent with the
 * same Idempotency-Key. Due rows are selected {@code FOR UPDATE SKIP LOCKED} (MariaDB 10.6+): two
 * instances claiming at the same time get disjoint rows and never wait for each other. Results are
 * recorded only under the claim's token, so an instance whose lease ran out cannot overwrite the
 * result of the instance that claimed the row after it.
 *
 * <p>Reads outside a transaction run in a request context of their own (the dispatcher's threads
 * have none).
 */
@ApplicationScoped
@ActivateRequestContext
public class SmsOutbox {

    /** The lock timeout that makes a locking read skip rows other transactions hold (FOR UPDATE SKIP LOCKED). */
    private static final int SKIP_LOCKED = -2;

    /**
     * Claims up to {@code max} due rows, oldest due first. A cancellation notice is not due while its
     * order's confirmation is still PENDING (the customer must get the confirmation first).
     */
    public List<ClaimedSms> claimDue(int max, Duration lease) {
        // Every text's send wakes a sweep that finds nothing more to claim: one plain read on the
        // due index says so without a transaction and a locking read (at a few orders a second, that
        // transaction would be one of the sms-service's four commits per order). A row committed
        // just after it is claimed by the sweep its own consume transaction wakes.
        if (SmsOutboxEntry.getEntityManager().createQuery("select 1 from SmsOutboxEntry where status = ?1"
                + " and nextAttemptAt <= ?2", Integer.class).setParameter(1, SmsStatus.PENDING).setParameter(2, now())
                .setMaxResults(1).getResultList().isEmpty()) {
            return List.of();
        }
        return QuarkusTransaction.requiringNew().call(() -> claimInTransaction(max, lease));
    }

    /**
     * Records SENT for {@code sent} and claims up to {@code max} due rows in one transaction: the
     * dispatcher's round after sends finished. Two transactions per round would be a third of the
     * suite's commits at 180 orders/s. When it fails, neither
     * happened: the sent rows stay claimed (sent again after their lease with the same key) and
     * the next sweep claims.
     *
     * @param sent texts the gateway accepted (may be empty: then only {@link #claimDue}, which opens
     *             no transaction when nothing is due)
     * @param max  rows to claim at most (0: only record)
     */
    public SentAndClaimed markSentAndClaimDue(List<ClaimedSms> sent, int max, Duration lease) {
        if (sent.isEmpty()) {
            return new SentAndClaimed(0, max > 0 ? claimDue(max, lease) : List.of());
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            int recorded = markSentInTransaction(sent);
            return new SentAndClaimed(recorded, max > 0 ? claimInTransaction(max, lease) : List.of());
        });
    }

    /**
     * What {@link #markSentAndClaimDue} did.
     *
     * @param recorded how many texts were recorded SENT (fewer than given when claims had been lost)
     * @param claimed  the rows claimed for sending
     */
    public record SentAndClaimed(int recorded, List<ClaimedSms> claimed) {
    }

    /** Inside the caller's transaction: selects and claims up to {@code max} due rows (written at its commit). */
    private List<ClaimedSms> claimInTransaction(int max, Duration lease) {
        Instant now = now();
        List<SmsOutboxEntry> due = SmsOutboxEntry.<SmsOutboxEntry> find("""
                from SmsOutboxEntry e
                where e.status = ?1 and e.nextAttemptAt <= ?2
                  and not (e.eventType = ?3 and exists (
                      from SmsOutboxEntry c
                      where c.orderId = e.orderId and c.eventType = ?4 and c.status = ?1))
                order by e.nextAttemptAt, e.rowId""",
                SmsStatus.PENDING, now, OrderEventType.CANCEL, OrderEventType.CREATE)
                .withLock(LockModeType.PESSIMISTIC_WRITE).withHint(SpecHints.HINT_SPEC_LOCK_TIMEOUT, SKIP_LOCKED)
                .range(0, max - 1).list();
        return due.stream().map(entry -> {
            entry.attempts++;
            entry.claimToken = UUID.randomUUID().toString();
            entry.nextAttemptAt = now.plus(lease);
            entry.updatedAt = now;
            return new ClaimedSms(entry.rowId, entry.claimToken, entry.businessKey, entry.phone, entry.text,
                    entry.attempts);
        }).toList();
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
        return QuarkusTransaction.requiringNew().call(() -> markSentInTransaction(claims));
    }

    /** Inside the caller's transaction: SENT for these claims, one statement. */
    private int markSentInTransaction(List<ClaimedSms> claims) {
        if (claims.isEmpty()) {
            return 0;
        }
        Instant now = now();
        // Claim tokens are unique per claim, so a row matches only its own claim's token: the ids
        // add no condition, they let the statement find the rows by primary key. claim_token has no
        // index; by the token alone every round would read the whole table.
        return SmsOutboxEntry.update("status = ?1, sentAt = ?2, updatedAt = ?2, lastError = null, claimToken = null"
                + " where rowId in ?3 and claimToken in ?4", SmsStatus.SENT, now,
                claims.stream().map(ClaimedSms::id).toList(), claims.stream().map(ClaimedSms::claimToken).toList());
    }

    /** A transient failure: PENDING again, due at {@code retryAt}. @return false when the claim had been lost */
    public boolean markForRetry(ClaimedSms claim, String error, Instant retryAt) {
        return QuarkusTransaction.requiringNew().call(() -> SmsOutboxEntry.update("nextAttemptAt = ?1, updatedAt = ?2,"
                + " lastError = ?3, claimToken = null where rowId = ?4 and claimToken = ?5",
                retryAt.truncatedTo(ChronoUnit.MILLIS), now(), truncate(error), claim.id(), claim.claimToken())) == 1;
    }

    /** Refused, or out of attempts: FAILED, final. @return false when the claim had been lost */
    public boolean markFailed(ClaimedSms claim, String error) {
        return QuarkusTransaction.requiringNew().call(() -> SmsOutboxEntry.update("status = ?1, updatedAt = ?2,"
                + " lastError = ?3, claimToken = null where rowId = ?4 and claimToken = ?5", SmsStatus.FAILED, now(),
                truncate(error), claim.id(), claim.claimToken())) == 1;
    }

    /** Every row of an order, oldest first. */
    public List<SmsOutboxEntry> ofOrder(String orderId) {
        return SmsOutboxEntry.list("orderId", Sort.by("createdAt", "rowId"), orderId);
    }

    /**
     * Deletes up to {@code max} SENT, FAILED or WITHDRAWN rows whose last attempt ended (or, never
     * attempted, that were written) before {@code cutoff}, in the caller's transaction. A final row
     * keeps the {@code next_attempt_at} of its last claim (the attempt's start plus the lease), so the
     * due index finds them without reading the other rows.
     *
     * @return how many were deleted
     */
    public int deleteFinishedBefore(Instant cutoff, int max) {
        // Native: a DELETE with a LIMIT, so that one purge transaction holds few locks, is not JPA.
        return SmsOutboxEntry.getEntityManager().createNativeQuery("delete from sms_outbox where status in (?1, ?2, ?3)"
                + " and next_attempt_at < ?4 limit ?5")
                .setParameter(1, SmsStatus.SENT.name()).setParameter(2, SmsStatus.FAILED.name())
                .setParameter(3, SmsStatus.WITHDRAWN.name()).setParameter(4, cutoff).setParameter(5, max)
                .executeUpdate();
    }

    /**
     * Releases the held confirmations of orders that COMPLETED: each becomes PENDING and due now, in
     * the caller's transaction, with one statement (the UPDATE locks the rows it changes). A
     * confirmation already released, sent or withdrawn is left alone.
     *
     * @return how many were released
     */
    public int releaseConfirmations(List<String> orderIds) {
        if (orderIds.isEmpty()) {
            return 0;
        }
        List<String> keys = orderIds.stream().map(id -> OrderMessaging.messageKey(id, OrderEventType.CREATE)).toList();
        return SmsOutboxEntry.update("status = ?1, nextAttemptAt = ?2, updatedAt = ?2 where businessKey in ?3"
                + " and status = ?4", SmsStatus.PENDING, now(), keys, SmsStatus.HELD);
    }

    private static String truncate(String error) {
        return error.length() <= SmsOutboxEntry.MAX_ERROR_LENGTH ? error
                : error.substring(0, SmsOutboxEntry.MAX_ERROR_LENGTH);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
