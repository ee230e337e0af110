package dev.orderflow.consumer;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQPermanentFailure;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The consumer pipeline (the one home of it): receive → parse and validate → dedupe on
 * {@code consume_record} → business change → record → acknowledge after commit. Call it from an
 * {@code @Incoming} method on a worker thread (the pipeline blocks on the database):
 *
 * <pre>{@code
 * @Incoming("orders")
 * @Blocking
 * public CompletionStage<Void> onOrderEvent(Message<String> message) {
 *     return consumer.consume(message, OrderEventParser::parse, OrderEvent::messageKey,
 *             (event, context) -> inventory.apply(event));
 * }
 * }</pre>
 *
 * <p>What happens, in this order:
 * <ol>
 * <li>The body is parsed by the {@link PayloadParser}; anything it throws, an unsupported payload
 * type or a blank business key is a permanent {@code format} failure; so is, when reporting is
 * enabled, a key that names no order event ({@link ReportSubject}).</li>
 * <li>In one new JTA transaction: if a consume_record row exists for (group, key) the message is
 * a duplicate and nothing else happens; otherwise the row is inserted and flushed first (claiming
 * the key, so a concurrent duplicate blocks on the unique index instead of doing the business
 * work too), then the handler runs, then the row gets the handler's {@link Outcome} and, when
 * reporting is enabled, a DONE/REJECTED report goes into the {@code consume_report} outbox
 * ({@link ConsumeReporter}). Effect, record and report commit together or not at all.</li>
 * <li>A duplicate-key violation of {@link ConsumeRecord#UNIQUE_KEY_NAME} (a concurrent duplicate
 * committed first) means "already processed": rolled back and acknowledged.</li>
 * <li>Only after the commit returns is the message acknowledged. On failure the message is nacked:
 * with a {@link RocketMQPermanentFailure} for {@code format}/{@code business} (the connector
 * dead-letters it after this attempt), with the original exception for {@code system} (the
 * connector redelivers with back-off, DLQ after its maximum). Each failure is written to
 * {@code consume_failure} in its own transaction first (with a DEAD_LETTERED report for
 * permanent failures when reporting is enabled).</li>
 * </ol>
 */
@ApplicationScoped
public class IdempotentConsumer {

    private static final Logger LOG = Logger.getLogger(IdempotentConsumer.class);

    /** MariaDB/MySQL ER_DUP_ENTRY. */
    private static final int DUPLICATE_ENTRY_ERROR = 1062;

    private final EntityManager entityManager;
    private final ConsumeFailureRecorder failureRecorder;
    private final ConsumeReporter reporter;

    @Inject
    public IdempotentConsumer(EntityManager entityManager, ConsumeFailureRecorder failureRecorder,
            ConsumeReporter reporter) {
        this.entityManager = entityManager;
        this.failureRecorder = failureRecorder;
        this.reporter = reporter;
    }

    /**
     * Runs the pipeline, deduping on the message's KEYS ({@link IncomingRocketMQMetadata#key()}).
     * Prefer {@link #consume(Message, PayloadParser, Function, MessageHandler)} when the business
     * key can be derived from the body.
     */
    public <T> CompletionStage<Void> consume(Message<?> message, PayloadParser<T> parser, MessageHandler<T> handler) {
        return consume(message, parser, null, handler);
    }

    /**
     * Runs the pipeline for one message and returns the acknowledgement or negative
     * acknowledgement of it (complete it by returning it from the {@code @Incoming} method).
     *
     * @param message a message from a {@code smallrye-rocketmq} channel (String or byte[] payload)
     * @param parser  body → payload; throwing means a format failure
     * @param keyOf   payload → business key to dedupe on; null to use the message's KEYS
     * @param handler the business change
     * @throws IllegalArgumentException when the message has no {@link IncomingRocketMQMetadata}
     *                                  (wired to a channel of another connector: a programming error)
     */
    public <T> CompletionStage<Void> consume(Message<?> message, PayloadParser<T> parser, Function<T, String> keyOf,
            MessageHandler<T> handler) {
        Objects.requireNonNull(parser, "parser");
        Objects.requireNonNull(handler, "handler");
        IncomingRocketMQMetadata metadata = message.getMetadata(IncomingRocketMQMetadata.class)
                .orElseThrow(() -> new IllegalArgumentException(
                        "The message carries no IncomingRocketMQMetadata: is the channel a smallrye-rocketmq channel?"));
        Delivery delivery = new Delivery(metadata.consumerGroup(), metadata.key(), metadata.msgId(),
                metadata.reconsumeTimes() + 1);

        T payload;
        String key;
        try {
            payload = parser.parse(bodyOf(message));
            key = keyOf == null ? metadata.key() : keyOf.apply(payload);
        } catch (Exception e) {
            return fail(message, delivery, FailureClass.FORMAT, describe(e), e);
        }
        if (key == null || key.isBlank()) {
            return fail(message, delivery, FailureClass.FORMAT, "no business key to dedupe on", null);
        }
        delivery = delivery.withKey(key);
        if (reporter.enabled() && ReportSubject.ofMessageKey(key) == null) {
            // The report names the order event by this key; without one no status could ever show the result.
            return fail(message, delivery, FailureClass.FORMAT, "business key '" + key
                    + "' is not <orderId>:<create|cancel>, so no result can be reported for it", null);
        }
        ConsumeContext context = new ConsumeContext(delivery.group(), key, delivery.attempt(), metadata);

        boolean applied;
        try {
            applied = QuarkusTransaction.requiringNew().call(() -> applyOnce(payload, context, delivery(context, metadata), handler));
        } catch (Exception e) {
            if (isConcurrentDuplicate(e)) {
                LOG.debugf("Already processed by a concurrent delivery: group=%s key=%s", context.consumerGroup(), key);
                return message.ack();
            }
            RocketMQPermanentFailure permanent = RocketMQPermanentFailure.find(e);
            if (permanent != null) {
                return fail(message, delivery, classOf(permanent), permanent.getMessage(), e);
            }
            BusinessFailure business = findCause(e, BusinessFailure.class);
            if (business != null) {
                return fail(message, delivery, FailureClass.BUSINESS, business.getMessage(), e);
            }
            return fail(message, delivery, FailureClass.SYSTEM, describe(rootCause(e)), e);
        }
        if (!applied) {
            LOG.debugf("Already processed: group=%s key=%s msgId=%s", context.consumerGroup(), key, metadata.msgId());
        }
        return message.ack();
    }

    /** @return false when (group, key) was already recorded: nothing was done */
    private <T> boolean applyOnce(T payload, ConsumeContext context, Delivery delivery, MessageHandler<T> handler)
            throws Exception {
        Long existing = entityManager.createQuery(
                "select count(r) from ConsumeRecord r where r.consumerGroup = :group and r.messageKey = :key", Long.class)
                .setParameter("group", context.consumerGroup())
                .setParameter("key", context.messageKey())
                .getSingleResult();
        if (existing > 0) {
            return false;
        }
        ConsumeRecord record = new ConsumeRecord();
        record.consumerGroup = context.consumerGroup();
        record.messageKey = context.messageKey();
        record.msgId = delivery.msgId();
        record.outcome = Outcome.Status.DONE;
        record.processedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        entityManager.persist(record);
        // Claim the key before the business work: a concurrent duplicate now waits on the unique
        // index and then fails with a duplicate key instead of applying the effect a second time.
        entityManager.flush();

        Outcome outcome = handler.handle(payload, context);
        if (outcome == null) {
            throw new IllegalStateException("Handler returned no Outcome for " + context.messageKey());
        }
        record.outcome = outcome.status();
        record.outcomeReason = ConsumeFailureRecorder.truncate(outcome.reason());
        // Same transaction as the record and the effect: the report exists if and only if they commit.
        reporter.reportOutcome(context.consumerGroup(), context.messageKey(), outcome, record.processedAt);
        return true;
    }

    private CompletionStage<Void> fail(Message<?> message, Delivery delivery, FailureClass failureClass, String reason,
            Throwable cause) {
        ConsumeFailed failure = new ConsumeFailed(delivery.group(), delivery.key(), delivery.msgId(), failureClass,
                reason, delivery.attempt());
        Throwable nackCause = failureClass.permanent()
                ? new RocketMQPermanentFailure(failureClass.label(), reason, cause)
                : cause;
        if (failureClass.permanent()) {
            LOG.warnf("Dead-lettering %s: %s failure on attempt %d: %s", delivery, failureClass.label(),
                    delivery.attempt(), reason);
        } else {
            LOG.warnf(cause, "Will retry %s: system failure on attempt %d: %s", delivery, delivery.attempt(), reason);
        }
        try {
            failureRecorder.record(failure);
        } catch (RuntimeException recordingFailure) {
            // The database may be what failed; the message is still nacked so that nothing is lost.
            LOG.errorf(recordingFailure, "Could not record consume failure %s", failure);
            nackCause.addSuppressed(recordingFailure);
        }
        return message.nack(nackCause);
    }

    private static Delivery delivery(ConsumeContext context, IncomingRocketMQMetadata metadata) {
        return new Delivery(context.consumerGroup(), context.messageKey(), metadata.msgId(), context.attempt());
    }

    private static FailureClass classOf(RocketMQPermanentFailure permanent) {
        return FailureClass.FORMAT.label().equals(permanent.failureClass()) ? FailureClass.FORMAT : FailureClass.BUSINESS;
    }

    private static String bodyOf(Message<?> message) {
        Object payload = message.getPayload();
        if (payload instanceof String text) {
            return text;
        }
        if (payload instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("unsupported payload type "
                + (payload == null ? "null" : payload.getClass().getName()) + " (expected String or byte[])");
    }

    /** True when {@code e} is a violation of consume_record's unique key: another delivery committed it first. */
    static boolean isConcurrentDuplicate(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SQLException sql && sql.getErrorCode() == DUPLICATE_ENTRY_ERROR
                    && String.valueOf(sql.getMessage()).contains(ConsumeRecord.UNIQUE_KEY_NAME)) {
                return true;
            }
        }
        return false;
    }

    private static <X extends Throwable> X findCause(Throwable e, Class<X> type) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static Throwable rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** Identifies a delivery in logs and failure records. */
    private record Delivery(String group, String key, String msgId, int attempt) {

        Delivery withKey(String businessKey) {
            return new Delivery(group, businessKey, msgId, attempt);
        }

        @Override
        public String toString() {
            return "message group=" + group + " key=" + key + " msgId=" + msgId;
        }
    }
}
