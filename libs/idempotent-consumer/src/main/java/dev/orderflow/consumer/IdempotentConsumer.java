package dev.orderflow.consumer;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.hibernate.StatelessSession;
import org.jboss.logging.Logger;

import dev.orderflow.rocketmq.IncomingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.IncomingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQBatchFailure;
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
 * a duplicate and nothing else happens; otherwise the row is inserted first (claiming the key,
 * so a concurrent duplicate blocks on the unique index instead of doing the business work too),
 * then the handler runs, then the row gets the handler's {@link Outcome} and, when reporting is
 * enabled, a DONE/REJECTED report goes into the {@code consume_report} outbox
 * ({@link ConsumeReporter}). Effect, record and report commit together or not at all.</li>
 * <li>A duplicate-key violation of {@link #CONSUME_RECORD_UNIQUE_KEY} (a concurrent duplicate
 * committed first) means "already processed": rolled back and acknowledged.</li>
 * <li>Only after the commit returns is the message acknowledged. On failure the message is nacked:
 * with a {@link RocketMQPermanentFailure} for {@code format}/{@code business} (the connector
 * dead-letters it after this attempt), with the original exception for {@code system} (the
 * connector redelivers with back-off, DLQ after its maximum). Each failure is written to
 * {@code consume_failure} in its own transaction first (with a DEAD_LETTERED report for
 * permanent failures when reporting is enabled).</li>
 * </ol>
 *
 * <p>Batch channels ({@code batch=true}, {@code batch-size=N}) go through the same method: the
 * batch's elements share one transaction (one consume_record row each), and only the failed
 * elements are dead-lettered or redelivered (see {@code consumeBatch}). Declare the parameter as
 * {@code Message<?>} so that one method serves both modes.
 */
@ApplicationScoped
public class IdempotentConsumer {

    private static final Logger LOG = Logger.getLogger(IdempotentConsumer.class);

    /**
     * Name of consume_record's UNIQUE(consumer_group, message_key) ({@code V1_0__consume_record.sql});
     * a violation of it means "already processed".
     */
    static final String CONSUME_RECORD_UNIQUE_KEY = "uk_consume_record_group_key";

    /** MariaDB/MySQL ER_DUP_ENTRY. */
    private static final int DUPLICATE_ENTRY_ERROR = 1062;

    private final StatelessSession records;
    private final ConsumeFailureRecorder failureRecorder;
    private final ConsumeReporter reporter;
    private final TransactionSynchronizationRegistry transactions;

    @Inject
    public IdempotentConsumer(StatelessSession records, ConsumeFailureRecorder failureRecorder,
            ConsumeReporter reporter, TransactionSynchronizationRegistry transactions) {
        this.records = records;
        this.failureRecorder = failureRecorder;
        this.reporter = reporter;
        this.transactions = transactions;
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
        Optional<IncomingRocketMQBatchMetadata> batch = message.getMetadata(IncomingRocketMQBatchMetadata.class);
        if (batch.isPresent()) {
            return consumeBatch(message, batch.get().messages(), parser, keyOf, handler);
        }
        IncomingRocketMQMetadata metadata = message.getMetadata(IncomingRocketMQMetadata.class)
                .orElseThrow(() -> new IllegalArgumentException(
                        "The message carries no IncomingRocketMQMetadata: is the channel a smallrye-rocketmq channel?"));
        Element<T> element = parse(message.getPayload(), metadata, parser, keyOf);
        Throwable failure = element.failure != null ? element.failure : applyAlone(element, handler);
        return failure == null ? message.ack() : message.nack(failure);
    }

    /**
     * A batch ({@code batch=true} channel): the elements are applied in one transaction, with one
     * consume_record row per element, so the transaction's fixed cost is paid once per batch.
     * Elements about different orders are applied in key order (keys are {@code <orderId>:...}), so
     * that concurrent batches take their row locks in the same order; elements of one order keep
     * their arrival order. When the batch transaction fails (one element's business or system
     * failure, a concurrent duplicate, a deadlock), nothing of it committed and every element is
     * applied again alone, exactly as a single message would be. Failed elements are named in a
     * {@link RocketMQBatchFailure}: the connector dead-letters or redelivers only those.
     */
    private <T> CompletionStage<Void> consumeBatch(Message<?> message, List<IncomingRocketMQMetadata> metadata,
            PayloadParser<T> parser, Function<T, String> keyOf, MessageHandler<T> handler) {
        if (!(message.getPayload() instanceof List<?> payloads) || payloads.size() != metadata.size()) {
            throw new IllegalArgumentException("A batch message carries a list payload with one element per metadata entry");
        }
        Map<Integer, Throwable> failures = new HashMap<>();
        List<Element<T>> elements = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            Element<T> element = parse(payloads.get(i), metadata.get(i), parser, keyOf);
            element.index = i;
            if (element.failure != null) {
                failures.put(i, element.failure);
            } else {
                elements.add(element);
            }
        }
        elements.sort(Comparator.comparing(e -> ConsumeBatch.orderIdOf(e.context.messageKey())));
        if (!elements.isEmpty()) {
            try {
                QuarkusTransaction.requiringNew().call(() -> applyAll(elements, handler));
            } catch (Exception batchFailure) {
                LOG.debugf(batchFailure, "Batch of %d failed as a whole; applying each element alone", elements.size());
                for (Element<T> element : elements) {
                    Throwable failure = applyAlone(element, handler);
                    if (failure != null) {
                        failures.put(element.index, failure);
                    }
                }
            }
        }
        return failures.isEmpty() ? message.ack() : message.nack(new RocketMQBatchFailure(failures));
    }

    /** Parses a body and derives its key; a format failure is recorded and kept in the element. */
    private <T> Element<T> parse(Object body, IncomingRocketMQMetadata metadata, PayloadParser<T> parser,
            Function<T, String> keyOf) {
        Delivery delivery = new Delivery(metadata.consumerGroup(), metadata.key(), metadata.msgId(),
                metadata.reconsumeTimes() + 1);
        T payload;
        String key;
        try {
            payload = parser.parse(textOf(body));
            key = keyOf == null ? metadata.key() : keyOf.apply(payload);
        } catch (Exception e) {
            return Element.failed(failure(delivery, FailureClass.FORMAT, describe(e), e));
        }
        if (key == null || key.isBlank()) {
            return Element.failed(failure(delivery, FailureClass.FORMAT, "no business key to dedupe on", null));
        }
        delivery = delivery.withKey(key);
        if (reporter.enabled() && ReportSubject.ofMessageKey(key) == null) {
            // The report names the order event by this key; without one no status could ever show the result.
            return Element.failed(failure(delivery, FailureClass.FORMAT, "business key '" + key
                    + "' is not <orderId>:<create|cancel>, so no result can be reported for it", null));
        }
        return new Element<>(payload, new ConsumeContext(delivery.group(), key, delivery.attempt(), metadata), delivery,
                null);
    }

    /**
     * Applies one element in its own transaction.
     *
     * @return null when applied or already processed; else the (recorded) cause to nack with
     */
    private <T> Throwable applyAlone(Element<T> element, MessageHandler<T> handler) {
        ConsumeContext context = element.context;
        boolean applied;
        try {
            applied = QuarkusTransaction.requiringNew().call(() -> applyAll(List.of(element), handler)) > 0;
        } catch (Exception e) {
            if (isConcurrentDuplicate(e)) {
                LOG.debugf("Already processed by a concurrent delivery: group=%s key=%s", context.consumerGroup(),
                        context.messageKey());
                return null;
            }
            RocketMQPermanentFailure permanent = RocketMQPermanentFailure.find(e);
            if (permanent != null) {
                return failure(element.delivery, classOf(permanent), permanent.getMessage(), e);
            }
            BusinessFailure business = findCause(e, BusinessFailure.class);
            if (business != null) {
                return failure(element.delivery, FailureClass.BUSINESS, business.getMessage(), e);
            }
            return failure(element.delivery, FailureClass.SYSTEM, describe(rootCause(e)), e);
        }
        if (!applied) {
            LOG.debugf("Already processed: group=%s key=%s msgId=%s", context.consumerGroup(), context.messageKey(),
                    element.delivery.msgId());
        }
        return null;
    }

    /**
     * Inside the caller's transaction: skips the elements whose (group, key) is recorded (or
     * repeated in the list), claims the others' keys, then runs the handler for each. The
     * pipeline's own rows take one round trip per batch, not per element: one query for the
     * recorded keys, one bulk insert of the consume_record claims, one of the reports (plus an
     * update per outcome other than a plain DONE). They go through the transaction's stateless
     * session: the pipeline never reads them back, so a persistence context would only cost memory
     * and a dirty check at the commit.
     *
     * @return how many elements were applied (0: all were already processed)
     */
    private <T> int applyAll(List<Element<T>> elements, MessageHandler<T> handler) throws Exception {
        String group = elements.get(0).context.consumerGroup();
        Set<String> keys = new LinkedHashSet<>();
        for (Element<T> element : elements) {
            if (!element.context.consumerGroup().equals(group)) {
                throw new IllegalArgumentException("A batch holds the messages of one consumer group");
            }
            keys.add(element.context.messageKey());
        }
        // Native: Hibernate translates an HQL query again whenever its list parameter's length changes.
        Set<String> recorded = new HashSet<>(records.createNativeQuery("select message_key from consume_record"
                + " where consumer_group = :group and message_key in (:keys)", String.class)
                .setParameter("group", group).setParameterList("keys", keys).getResultList());
        List<Element<T>> fresh = new ArrayList<>(elements.size());
        for (Element<T> element : elements) {
            if (recorded.add(element.context.messageKey())) {
                fresh.add(element);
            }
        }
        if (fresh.isEmpty()) {
            return 0;
        }
        Instant processedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        // Claim the keys before the business work: a concurrent duplicate now waits on the unique
        // index and then fails with a duplicate key instead of applying the effect a second time.
        // Every row starts DONE; the few other outcomes are updated after their handler ran.
        List<ConsumeRecord> claims = new ArrayList<>(fresh.size());
        for (Element<T> element : fresh) {
            ConsumeRecord claim = new ConsumeRecord();
            claim.consumerGroup = group;
            claim.messageKey = element.context.messageKey();
            claim.msgId = element.delivery.msgId();
            claim.outcome = Outcome.Status.DONE;
            claim.processedAt = processedAt;
            claims.add(claim);
        }
        records.insertMultiple(claims);

        ConsumeBatch batch = ConsumeBatch.begin(transactions, fresh.stream().map(e -> e.payload).toList());
        List<PendingReport> reports = new ArrayList<>(fresh.size());
        for (int i = 0; i < fresh.size(); i++) {
            Element<T> element = fresh.get(i);
            Outcome outcome = handler.handle(element.payload, element.context);
            if (outcome == null) {
                throw new IllegalStateException("Handler returned no Outcome for " + element.context.messageKey());
            }
            if (outcome.status() != Outcome.Status.DONE || outcome.reason() != null) {
                ConsumeRecord claim = claims.get(i);
                claim.outcome = outcome.status();
                claim.outcomeReason = ConsumeFailureRecorder.truncate(outcome.reason());
                records.update(claim);
            }
            // Same transaction as the record and the effect: the report exists if and only if they commit.
            reporter.outcomeReport(group, element.context.messageKey(), outcome, processedAt).ifPresent(reports::add);
        }
        batch.finish();
        reporter.writeAll(reports);
        return fresh.size();
    }

    /** Logs and records a failure; returns the cause to nack the message with. */
    private Throwable failure(Delivery delivery, FailureClass failureClass, String reason, Throwable cause) {
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
        return nackCause;
    }

    private static FailureClass classOf(RocketMQPermanentFailure permanent) {
        return FailureClass.FORMAT.label().equals(permanent.failureClass()) ? FailureClass.FORMAT : FailureClass.BUSINESS;
    }

    private static String textOf(Object payload) {
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
                    && String.valueOf(sql.getMessage()).contains(CONSUME_RECORD_UNIQUE_KEY)) {
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

    /** One message of a delivery, parsed, or its format failure (already recorded). */
    private static final class Element<T> {
        final T payload;
        final ConsumeContext context;
        final Delivery delivery;
        final Throwable failure;
        int index;

        Element(T payload, ConsumeContext context, Delivery delivery, Throwable failure) {
            this.payload = payload;
            this.context = context;
            this.delivery = delivery;
            this.failure = failure;
        }

        static <T> Element<T> failed(Throwable failure) {
            return new Element<>(null, null, null, failure);
        }
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
