package dev.orderflow.sms.outbox;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.sql.BatchSql;
import io.quarkus.narayana.jta.QuarkusTransaction;

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
 */
@ApplicationScoped
public class SmsOutbox {

    private final DataSource dataSource;

    @Inject
    public SmsOutbox(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Claims up to {@code max} due rows, oldest due first. A cancellation notice is not due while its
     * order's confirmation is still PENDING (the customer must get the confirmation first).
     */
    public List<ClaimedSms> claimDue(int max, Duration lease) {
        // Every text's send wakes a sweep that finds nothing more to claim: one plain read on the
        // due index says so without a transaction and a locking read (at a few orders a second, that
        // transaction would be one of the sms-service's four commits per order). A row committed
        // just after it is claimed by the sweep its own consume transaction wakes.
        if (BatchSql.query(dataSource, "select 1 from sms_outbox where status = ? and next_attempt_at <= ? limit 1",
                List.of(SmsStatus.PENDING, now())).isEmpty()) {
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

    /** Inside the caller's transaction: selects and claims up to {@code max} due rows. */
    private List<ClaimedSms> claimInTransaction(int max, Duration lease) {
        Instant now = now();
        List<ClaimedSms> due = BatchSql.select(dataSource, """
                select e.id, e.business_key, e.phone, e.text, e.attempts from sms_outbox e
                where e.status = ? and e.next_attempt_at <= ?
                  and not (e.event_type = ? and exists (
                      select 1 from sms_outbox c
                      where c.order_id = e.order_id and c.event_type = ? and c.status = ?))
                order by e.next_attempt_at, e.id
                limit ? for update skip locked""",
                List.of(SmsStatus.PENDING, now, OrderEventType.CANCEL, OrderEventType.CREATE, SmsStatus.PENDING, max),
                row -> new ClaimedSms(row.getLong("id"), UUID.randomUUID().toString(), row.getString("business_key"),
                        row.getString("phone"), row.getString("text"), row.getInt("attempts") + 1));
        if (due.isEmpty()) {
            return due;
        }
        // One statement for the whole claim: each row gets its own token (CASE on the id).
        StringBuilder tokens = new StringBuilder("case id");
        List<Object> parameters = new ArrayList<>(due.size() * 3 + 2);
        for (ClaimedSms claim : due) {
            tokens.append(" when ? then ?");
            parameters.add(claim.id());
            parameters.add(claim.claimToken());
        }
        parameters.add(now.plus(lease));
        parameters.add(now);
        due.forEach(claim -> parameters.add(claim.id()));
        BatchSql.update(dataSource, "update sms_outbox set attempts = attempts + 1, claim_token = "
                + tokens + " end, next_attempt_at = ?, updated_at = ? where id in ("
                + BatchSql.parameters(due.size()) + ")", parameters);
        return due;
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
        List<Object> parameters = new ArrayList<>(claims.size() * 2 + 3);
        parameters.addAll(List.of(SmsStatus.SENT, now, now));
        claims.forEach(claim -> parameters.add(claim.id()));
        claims.forEach(claim -> parameters.add(claim.claimToken()));
        // Claim tokens are unique per claim, so a row matches only its own claim's token: the ids
        // add no condition, they let the statement find the rows by primary key. claim_token has no
        // index; by the token alone every round would read the whole table.
        return BatchSql.update(dataSource, "update sms_outbox set status = ?, sent_at = ?, updated_at = ?,"
                + " last_error = null, claim_token = null where id in (" + BatchSql.parameters(claims.size())
                + ") and claim_token in (" + BatchSql.parameters(claims.size()) + ")", parameters);
    }

    /** A transient failure: PENDING again, due at {@code retryAt}. @return false when the claim had been lost */
    public boolean markForRetry(ClaimedSms claim, String error, Instant retryAt) {
        return BatchSql.update(dataSource, "update sms_outbox set next_attempt_at = ?, updated_at = ?, last_error = ?,"
                + " claim_token = null where id = ? and claim_token = ?", List.of(retryAt.truncatedTo(ChronoUnit.MILLIS),
                        now(), truncate(error), claim.id(), claim.claimToken())) == 1;
    }

    /** Refused, or out of attempts: FAILED, final. @return false when the claim had been lost */
    public boolean markFailed(ClaimedSms claim, String error) {
        return BatchSql.update(dataSource, "update sms_outbox set status = ?, updated_at = ?, last_error = ?,"
                + " claim_token = null where id = ? and claim_token = ?", List.of(SmsStatus.FAILED, now(),
                        truncate(error), claim.id(), claim.claimToken())) == 1;
    }

    /** Every row of an order, oldest first. */
    public List<SmsOutboxEntry> ofOrder(String orderId) {
        return BatchSql.select(dataSource, "select * from sms_outbox where order_id = ? order by created_at, id",
                List.of(orderId), SmsOutboxEntry::read);
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
        return BatchSql.update(dataSource, "delete from sms_outbox where status in (?, ?, ?) and next_attempt_at < ?"
                + " limit ?", List.of(SmsStatus.SENT, SmsStatus.FAILED, SmsStatus.WITHDRAWN, cutoff, max));
    }

    /**
     * Releases the held confirmations of orders that COMPLETED: each becomes PENDING and due now, in
     * the caller's transaction. A confirmation already released, sent or withdrawn is left alone.
     *
     * @return the business keys released
     */
    public List<String> releaseConfirmations(List<String> orderIds) {
        if (orderIds.isEmpty()) {
            return List.of();
        }
        List<String> keys = orderIds.stream().map(id -> OrderMessaging.messageKey(id, OrderEventType.CREATE)).toList();
        List<Object> lookup = new ArrayList<>(keys);
        lookup.add(SmsStatus.HELD);
        List<String> held = BatchSql.select(dataSource, "select business_key from sms_outbox where business_key in ("
                + BatchSql.parameters(keys.size()) + ") and status = ? for update", lookup, row -> row.getString(1));
        if (held.isEmpty()) {
            return held;
        }
        Instant now = now();
        List<Object> parameters = new ArrayList<>(List.of(SmsStatus.PENDING, now, now));
        parameters.addAll(held);
        BatchSql.update(dataSource, "update sms_outbox set status = ?, next_attempt_at = ?, updated_at = ?"
                + " where business_key in (" + BatchSql.parameters(held.size()) + ")", parameters);
        return held;
    }

    private static String truncate(String error) {
        return error.length() <= SmsOutboxEntry.MAX_ERROR_LENGTH ? error
                : error.substring(0, SmsOutboxEntry.MAX_ERROR_LENGTH);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
