package dev.orderflow.consumer;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.hibernate.StatelessSession;
import org.jboss.logging.Logger;

import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportJson;
import dev.orderflow.order.events.ConsumerReports;

/**
 * Writes result reports into the {@code consume_report} outbox inside the transaction that decides
 * the outcome, so that a report exists if and only if that transaction committed:
 * <ul>
 * <li>DONE / REJECTED: called by {@link IdempotentConsumer} in the transaction of the
 * consume_record row and the business effect (a rolled-back effect leaves no report);</li>
 * <li>DEAD_LETTERED: observes {@link ConsumeFailed} for permanent failures (format, business), in
 * the transaction of the consume_failure row.</li>
 * </ul>
 * After each commit it hands the committed rows to the {@link ConsumeReportRelay}, which sends
 * them from memory and deletes them (the rows are what makes the report survive a crash).
 *
 * <p>Not reported here: messages dead-lettered because their retries ran out (class
 * {@code system}). The connector decides that on the last failed attempt, outside the pipeline;
 * the status service learns those by consuming {@code %DLQ%<group>} itself.
 *
 * <p>Enabled by {@code orderflow.idempotent-consumer.reporting.consumer}.
 */
@ApplicationScoped
public class ConsumeReporter {

    private static final Logger LOG = Logger.getLogger(ConsumeReporter.class);

    private final StatelessSession outbox;
    private final TransactionSynchronizationRegistry transactions;
    private final ConsumeReportRelay relay;
    private final Optional<String> consumer;

    @Inject
    public ConsumeReporter(StatelessSession outbox, TransactionSynchronizationRegistry transactions,
            ConsumeReportRelay relay, IdempotentConsumerConfig config) {
        this.outbox = outbox;
        this.transactions = transactions;
        this.relay = relay;
        this.consumer = config.reporting().consumer();
        consumer.ifPresent(name -> {
            if (!ConsumerReports.isValidConsumerName(name)) {
                throw new IllegalArgumentException("orderflow.idempotent-consumer.reporting.consumer must be a short "
                        + "lower-case name like inventory, sms or points, not '" + name + "'");
            }
        });
    }

    /** True when this service reports its outcomes. */
    public boolean enabled() {
        return consumer.isPresent();
    }

    /** The configured consumer name, when reporting is enabled. */
    public Optional<String> consumer() {
        return consumer;
    }

    /**
     * The DONE or REJECTED report of the message with business key {@code messageKey}, for
     * {@link #writeAll} in the transaction that records the outcome; empty when reporting is off.
     */
    Optional<PendingReport> outcomeReport(String consumerGroup, String messageKey, Outcome outcome, Instant occurredAt) {
        if (consumer.isEmpty()) {
            return Optional.empty();
        }
        ReportSubject subject = ReportSubject.ofMessageKey(messageKey);
        if (subject == null) {
            // The pipeline rejects such keys as format failures before the transaction; reaching this is a bug.
            throw new IllegalStateException("business key '" + messageKey + "' names no order event");
        }
        ConsumerReport report = outcome.status() == Outcome.Status.DONE
                ? ConsumerReport.done(subject.orderId(), subject.eventType(), consumer.get(), occurredAt)
                : ConsumerReport.rejected(subject.orderId(), subject.eventType(), consumer.get(), outcome.reason(),
                        occurredAt);
        return Optional.of(row(consumerGroup, messageKey, report));
    }

    /** Writes a DEAD_LETTERED report for a permanent failure, in the transaction of its consume_failure row. */
    void onConsumeFailed(@Observes ConsumeFailed failure) {
        if (consumer.isEmpty() || !failure.permanent()) {
            return;
        }
        ReportSubject subject = ReportSubject.ofMessageKey(failure.messageKey());
        if (subject == null) {
            // Neither body nor KEYS name an order event: there is no order whose status could show it.
            // The consume_failure row and the DLQ entry (with reason) still record it.
            LOG.warnf("Dead letter of group %s with key %s names no order event; no DEAD_LETTERED report",
                    failure.consumerGroup(), failure.messageKey());
            return;
        }
        ConsumerReport report = ConsumerReport.deadLettered(subject.orderId(), subject.eventType(), consumer.get(),
                failure.failureClass().label(), failure.reason() == null ? "(no reason)" : failure.reason(),
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
        writeAll(List.of(row(failure.consumerGroup(), failure.messageKey(), report)));
    }

    private static PendingReport row(String consumerGroup, String messageKey, ConsumerReport report) {
        PendingReport row = new PendingReport();
        row.consumerGroup = consumerGroup;
        row.messageKey = messageKey;
        row.reportKey = report.messageKey();
        row.consumer = report.consumer();
        row.outcome = report.outcome().name();
        row.body = ConsumerReportJson.toJson(truncatedReason(report));
        row.createdAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return row;
    }

    /**
     * Puts messages of the application's own into the outbox, in the current transaction: the relay
     * sends each one (body as is, KEYS {@code reportKey}, tag {@code consumer}) through channel
     * {@code consume-reports} after the commit, at least once, like the reports. The status service
     * publishes order outcomes this way.
     */
    public void enqueue(List<PendingReport> rows) {
        writeAll(rows);
    }

    /**
     * Inserts the rows into the outbox with one bulk insert, in the current transaction (through
     * its stateless session: nothing reads them back in it), and hands them to the relay after it
     * commits.
     */
    void writeAll(List<PendingReport> rows) {
        if (rows.isEmpty()) {
            return;
        }
        outbox.insertMultiple(rows);
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                // Nothing to prepare: the rows are part of the transaction like any other.
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    relay.committed(rows);
                }
            }
        });
    }

    /** Keeps the JSON within the column: reasons are cut to 1024 characters like everywhere in consume_*. */
    private static ConsumerReport truncatedReason(ConsumerReport report) {
        String reason = ConsumeFailureRecorder.truncate(report.reason());
        return reason == null || reason.equals(report.reason()) ? report
                : new ConsumerReport(report.schemaVersion(), report.orderId(), report.eventType(), report.consumer(),
                        report.outcome(), report.failureClass(), reason, report.occurredAt());
    }
}
