package dev.orderflow.sms.intent;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.orderflow.consumer.BusinessFailure;
import dev.orderflow.consumer.CancelBeforeCreateGuard;
import dev.orderflow.consumer.ConsumeBatch;
import dev.orderflow.consumer.ConsumeContext;
import dev.orderflow.consumer.Outcome;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.sms.outbox.SmsOutboxEntry;
import dev.orderflow.sms.outbox.SmsStatus;

/**
 * The SMS consumer's business change: records the intent to text the customer as an
 * {@code sms_outbox} row. Runs inside the idempotent-consumer pipeline's transaction, so the row
 * commits together with the consume_record row (and the result report), or none does; the
 * dispatcher sends it later. The rows are entities: a batch's new texts reach the table at its
 * commit, as one JDBC batch.
 *
 * <h2>The texts of one order</h2>
 * <ul>
 * <li>create: the confirmation is recorded HELD, and reported DONE: it is sent only once the status
 * service reports the order COMPLETED ({@link OrderOutcomeConsumer} releases it), so an order that
 * fails is never confirmed.</li>
 * <li>fail (the order failed for a business reason): the held confirmation is withdrawn and one
 * text says the order could not be fulfilled.</li>
 * <li>cancel: a confirmation still held is withdrawn; then the cancellation notice. After a
 * released confirmation the dispatcher does not send the notice while the confirmation is still
 * PENDING ({@code SmsOutbox.claimDue}), so the customer never reads "cancelled" before "confirmed",
 * even when the confirmation is being retried.</li>
 * </ul>
 * The order of create and cancel or fail is the shared {@link CancelBeforeCreateGuard}'s rule, the
 * same in every consumer group: a cancel before its create texts nothing (the cancel request's own
 * answer from order-service already told the customer); a fail before its create still texts the
 * failure, and the late create records no confirmation.
 */
@ApplicationScoped
public class SmsIntentRecorder {

    /** Transaction resource: the batch's business keys that already have an outbox row. */
    private static final Object KEYS_WITH_ROWS = SmsIntentRecorder.class.getName() + ".keysWithRows";

    private final TransactionSynchronizationRegistry transactions;
    private final CancelBeforeCreateGuard guard;
    private final Event<TextsDue> due;

    @Inject
    public SmsIntentRecorder(TransactionSynchronizationRegistry transactions, CancelBeforeCreateGuard guard,
            Event<TextsDue> due) {
        this.transactions = transactions;
        this.guard = guard;
        this.due = due;
    }

    /** The pipeline's {@link dev.orderflow.consumer.MessageHandler} for order events. */
    public Outcome record(OrderEvent event, ConsumeContext context) throws Exception {
        checkFitsTheOutbox(event);
        return guard.apply(event, context, () -> recordText(event));
    }

    private Outcome recordText(OrderEvent event) {
        String businessKey = event.messageKey();
        // Second line of defence behind consume_record (a redelivery after its row was purged). The
        // guard holds the order's lock and reads are READ COMMITTED: this sees any earlier row.
        if (hasRow(businessKey)) {
            return Outcome.done();
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        boolean confirmation = event.eventType() == OrderEventType.CREATE;
        if (!confirmation) {
            withdrawHeldConfirmation(event.orderId(), now);
        }
        SmsOutboxEntry entry = new SmsOutboxEntry();
        entry.businessKey = businessKey;
        entry.orderId = event.orderId();
        entry.customerId = event.customerId();
        entry.eventType = event.eventType();
        entry.phone = event.phone();
        entry.text = SmsTexts.textFor(event);
        entry.status = confirmation ? SmsStatus.HELD : SmsStatus.PENDING;
        entry.attempts = 0;
        entry.nextAttemptAt = now;
        entry.createdAt = now;
        entry.updatedAt = now;
        entry.persist();
        if (ConsumeBatch.current(transactions).isPresent()) {
            keysWithRows().add(businessKey);
        }
        if (!confirmation) {
            due.fire(new TextsDue(1));
        }
        return Outcome.done();
    }

    /**
     * The order's confirmation, if still held, is never to be sent: withdrawn, in this transaction
     * (also when this batch recorded it: then it is found among the batch's entities, not written yet).
     */
    private static void withdrawHeldConfirmation(String orderId, Instant now) {
        SmsOutboxEntry.<SmsOutboxEntry> findByIdOptional(OrderMessaging.messageKey(orderId, OrderEventType.CREATE))
                .filter(confirmation -> confirmation.status == SmsStatus.HELD)
                .ifPresent(confirmation -> {
                    confirmation.status = SmsStatus.WITHDRAWN;
                    confirmation.updatedAt = now;
                });
    }

    /**
     * Whether the business key has an outbox row (committed, or written by this batch). In a batch
     * the first call asks once for every order event of the batch.
     */
    private boolean hasRow(String businessKey) {
        if (ConsumeBatch.current(transactions).isEmpty()) {
            return !existingKeys(List.of(businessKey)).isEmpty();
        }
        return keysWithRows().contains(businessKey);
    }

    private Set<String> keysWithRows() {
        @SuppressWarnings("unchecked")
        Set<String> keys = (Set<String>) transactions.getResource(KEYS_WITH_ROWS);
        if (keys == null) {
            List<String> batchKeys = ConsumeBatch.current(transactions).orElseThrow().payloads().stream()
                    .filter(OrderEvent.class::isInstance).map(p -> ((OrderEvent) p).messageKey()).toList();
            keys = new HashSet<>(existingKeys(batchKeys));
            transactions.putResource(KEYS_WITH_ROWS, keys);
        }
        return keys;
    }

    /**
     * The business keys among {@code businessKeys} that have an outbox row, with one query for the
     * whole batch.
     */
    private static List<String> existingKeys(List<String> businessKeys) {
        if (businessKeys.isEmpty()) {
            return List.of();
        }
        return SmsOutboxEntry.getEntityManager().createQuery("select businessKey from SmsOutboxEntry"
                + " where businessKey in ?1", String.class).setParameter(1, businessKeys).getResultList();
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
