package dev.orderflow.sms.intent;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import dev.orderflow.consumer.BusinessFailure;
import dev.orderflow.consumer.ConsumeContext;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.sms.outbox.SmsOutboxEntry;
import dev.orderflow.sms.outbox.SmsStatus;

/**
 * The SMS consumer's business change: records the intent to text the customer as an
 * {@code sms_outbox} row. Runs inside the idempotent-consumer pipeline's transaction, so the row
 * commits together with the consume_record row, or neither does; the dispatcher sends it later.
 *
 * <h2>Create and cancel of one order (cancel before create)</h2>
 * Transactional messages land on any queue, so a cancel may be consumed before its create. Rule:
 * <ul>
 * <li>A cancel always records a cancellation notice.</li>
 * <li>A create whose order already has a cancel notice sends nothing: the customer would be told
 * "confirmed" after "cancelled". It is acknowledged as {@link Outcome.Status#REJECTED} with the
 * reason, so the pipeline's consume_record says why no confirmation exists.</li>
 * <li>When both rows exist, the create's was recorded first, and the dispatcher does not send a
 * cancel notice while its order's confirmation is still PENDING: the customer never gets the
 * cancellation before the confirmation.</li>
 * </ul>
 * The create and cancel handlers of one order take the order's {@code sms_order_lock} row lock
 * first, so they run one after the other and the second sees the first's committed row (the
 * datasource runs READ COMMITTED: every read sees the latest commit).
 */
@ApplicationScoped
public class SmsIntentRecorder {

    private final EntityManager entityManager;
    private final Event<SmsIntentRecorded> recorded;

    @Inject
    public SmsIntentRecorder(EntityManager entityManager, Event<SmsIntentRecorded> recorded) {
        this.entityManager = entityManager;
        this.recorded = recorded;
    }

    /** The pipeline's {@link dev.orderflow.consumer.MessageHandler} for order events. */
    public Outcome record(OrderEvent event, ConsumeContext context) {
        checkFitsTheOutbox(event);
        lockOrder(event.orderId());

        List<SmsOutboxEntry> recordedForOrder = entityManager.createQuery(
                "from SmsOutboxEntry e where e.orderId = :orderId", SmsOutboxEntry.class)
                .setParameter("orderId", event.orderId())
                .getResultList();
        String businessKey = event.messageKey();
        if (recordedForOrder.stream().anyMatch(e -> e.businessKey.equals(businessKey))) {
            // Second line of defence behind consume_record (e.g. a redelivery after its row was purged).
            return Outcome.done();
        }
        if (event.eventType() == OrderEventType.CREATE
                && recordedForOrder.stream().anyMatch(e -> e.eventType == OrderEventType.CANCEL)) {
            return Outcome.rejected("order " + event.orderId()
                    + " was cancelled before its create arrived: no confirmation is sent after the cancellation notice");
        }

        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        SmsOutboxEntry entry = new SmsOutboxEntry();
        entry.businessKey = businessKey;
        entry.orderId = event.orderId();
        entry.eventType = event.eventType();
        entry.phone = event.phone();
        entry.text = SmsTexts.textFor(event);
        entry.status = SmsStatus.PENDING;
        entry.attempts = 0;
        entry.nextAttemptAt = now;
        entry.createdAt = now;
        entry.updatedAt = now;
        entityManager.persist(entry);
        recorded.fire(new SmsIntentRecorded(businessKey));
        return Outcome.done();
    }

    /**
     * Takes the order's row lock (creating the row on first sight) until the transaction ends.
     * INSERT ... ON DUPLICATE KEY UPDATE locks the row exclusively in both cases, and a second
     * transaction for the same order waits here until the first commits.
     */
    private void lockOrder(String orderId) {
        entityManager.createNativeQuery("INSERT INTO sms_order_lock (order_id, created_at) VALUES (?1, UTC_TIMESTAMP(3)) "
                + "ON DUPLICATE KEY UPDATE order_id = order_id")
                .setParameter(1, orderId)
                .executeUpdate();
    }

    /** Values the outbox cannot hold can never be recorded: a business failure (DLQ), not a retry. */
    private static void checkFitsTheOutbox(OrderEvent event) {
        if (event.orderId().length() > SmsOutboxEntry.MAX_ORDER_ID_LENGTH) {
            throw new BusinessFailure("orderId longer than " + SmsOutboxEntry.MAX_ORDER_ID_LENGTH + " characters");
        }
        if (event.phone().length() > SmsOutboxEntry.MAX_PHONE_LENGTH) {
            throw new BusinessFailure("phone longer than " + SmsOutboxEntry.MAX_PHONE_LENGTH + " characters");
        }
    }
}
