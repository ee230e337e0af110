package dev.orderflow.status.reconciliation;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.ledger.RecordedEffect;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OwedEffects;
import dev.orderflow.order.events.OwedEffects.Consumer;
import dev.orderflow.order.events.OwedEffects.Effect;
import dev.orderflow.status.config.PeriodicJobs;
import dev.orderflow.status.reconciliation.ReconciliationSources.OrderRow;
import dev.orderflow.status.reconciliation.ReconciliationSources.OutcomeRow;
import dev.orderflow.status.service.SettableGauges;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduler;

/**
 * Compares every order created in a window with each consumer's effect and reports what
 * disagrees: a missing effect, an effect without order, an effect applied twice, a wrong amount.
 *
 * <p>What each consumer owes an order is {@link OwedEffects}; a consumer's create counts as
 * rejected when this service recorded its outcome as REJECTED, or as DEAD_LETTERED for an order
 * that failed (the create was never applied, and the order's failure compensated it). An undo (a
 * RESTORE, a reversal) is owed for what its create actually wrote: none when the create's effect is
 * missing (that is the finding), and of the amount written. An effect written in the window
 * whose order does not exist is an effect without order. Missing effects of orders younger than the
 * settle time (or cancelled or failed more recently) are not reported: they may still be on their
 * way. Missing texts of orders created (or cancelled or failed) longer ago than sms-service's
 * retention are not reported either: its purge may have deleted them
 * ({@link ReconciliationConfig#smsRetention()}).
 *
 * <p>A run streams the window a page of orders at a time and reads each page's effects by order id,
 * so its memory is bounded by {@link ReconciliationConfig#pageSize()} and
 * {@link ReconciliationConfig#maxFindings()}, not by the window or the order rate.
 *
 * <p>Runs every {@link ReconciliationConfig#interval()} and on demand ({@code POST
 * /admin/reconciliation}); exports {@code orderflow_reconciliation_findings{kind}} and
 * {@code orderflow_reconciliation_last_run_timestamp_seconds} from the last run.
 */
@ApplicationScoped
public class Reconciler {

    private static final Logger LOG = Logger.getLogger(Reconciler.class);
    /** What a finding calls each kind of text. */
    private static final Map<String, String> TEXT_NAMES = Map.of(OwedEffects.CONFIRMATION, "confirmation",
            OwedEffects.CANCELLATION, "cancellation", OwedEffects.FAILURE, "failure");

    private final ReconciliationSources sources;
    private final ReconciliationConfig config;
    private final Scheduler scheduler;
    private final AtomicReference<ReconciliationReport> last = new AtomicReference<>();
    private final SettableGauges gauges;

    @Inject
    public Reconciler(ReconciliationSources sources, ReconciliationConfig config, MeterRegistry registry,
            Scheduler scheduler) {
        this.sources = sources;
        this.config = config;
        this.gauges = new SettableGauges(registry);
        this.scheduler = scheduler;
        if (config.pageSize() < 1 || config.maxFindings() < 1) {
            throw new IllegalArgumentException("orderflow.reconciliation.page-size and max-findings must be at least 1,"
                    + " were " + config.pageSize() + " and " + config.maxFindings());
        }
        requirePositive("window", config.window());
        requirePositive("max-window", config.maxWindow());
        // Negative, effects still on their way would be reported missing.
        if (config.settleTime().isNegative()) {
            throw new IllegalArgumentException("orderflow.reconciliation.settle-time must not be negative, was "
                    + config.settleTime());
        }
        if (config.pointsRate().signum() < 0) {
            throw new IllegalArgumentException("orderflow.reconciliation.points-rate must not be negative"
                    + " (points-service's points.rate), was " + config.pointsRate());
        }
        // Zero or negative, every missing text would go unreported.
        requirePositive("sms-retention", config.smsRetention());
    }

    private static void requirePositive(String property, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException("orderflow.reconciliation." + property + " must be positive, was " + value);
        }
    }

    void start(@Observes StartupEvent event) {
        PeriodicJobs.scheduleUnlessOff(scheduler, "Scheduled reconciliation", config.interval(),
                "orderflow.reconciliation.interval", this::runScheduled);
    }

    private void runScheduled() {
        Instant now = Instant.now();
        try {
            ReconciliationReport report = run(now.minus(config.window()), now);
            if (!report.findings().isEmpty()) {
                LOG.warnf("Reconciliation of %d orders found %s", report.ordersChecked(), report.counts());
            }
        } catch (RuntimeException e) {
            // A service or database being down must not stop the schedule; the next run checks the window again.
            LOG.warnf(e, "Scheduled reconciliation failed; next run in %s", config.interval());
        }
    }

    /** The report of the last run since this instance started. */
    public Optional<ReconciliationReport> lastReport() {
        return Optional.ofNullable(last.get());
    }

    /**
     * Checks the orders created in [from, to) now, {@link ReconciliationConfig#pageSize()} orders at a
     * time; the report becomes the last one and feeds the metrics.
     */
    public ReconciliationReport run(Instant from, Instant to) {
        Instant ranAt = Instant.now();
        Instant settledBefore = ranAt.minus(config.settleTime());
        Instant textsKeptSince = ranAt.minus(config.smsRetention());
        FindingTally findings = new FindingTally(config.maxFindings());
        int ordersChecked = sources.forEachOrderChunk(from, to, config.pageSize(),
                orders -> checkOrders(orders, settledBefore, textsKeptSince, findings));
        for (Consumer consumer : Consumer.values()) {
            sources.forEachEffectOrderIdChunk(consumer, from, to, config.pageSize(), named -> {
                Set<String> missing = new TreeSet<>(named);
                missing.removeAll(sources.existingOrders(named));
                for (String orderId : missing) {
                    findings.add(new Finding(FindingKind.EFFECT_WITHOUT_ORDER, consumer.label(), orderId,
                            "an effect of " + consumer.label() + " names order " + orderId + ", which does not exist"));
                }
            });
        }
        ReconciliationReport report = new ReconciliationReport(ranAt, from, to, ordersChecked,
                findings.kept(), findings.counts());
        last.set(report);
        export(report);
        return report;
    }

    /** Checks one page of orders against the effects recorded for them. */
    private void checkOrders(List<OrderRow> orders, Instant settledBefore, Instant textsKeptSince,
            FindingTally findings) {
        List<String> ids = orders.stream().map(OrderRow::id).toList();
        List<OutcomeRow> outcomes = sources.outcomes(ids);
        Set<String> rejected = outcomes.stream()
                .filter(o -> "create".equalsIgnoreCase(o.eventType()) && "REJECTED".equals(o.outcome()))
                .map(o -> o.orderId() + ":" + o.consumer())
                .collect(Collectors.toSet());
        Map<String, List<OutcomeRow>> deadLettered = outcomes.stream()
                .filter(o -> "DEAD_LETTERED".equals(o.outcome()))
                .collect(Collectors.groupingBy(o -> o.orderId() + ":" + o.consumer()));
        Set<String> deadLetteredCreates = outcomes.stream()
                .filter(o -> "create".equalsIgnoreCase(o.eventType()) && "DEAD_LETTERED".equals(o.outcome()))
                .map(o -> o.orderId() + ":" + o.consumer())
                .collect(Collectors.toSet());
        Map<Consumer, Map<String, List<RecordedEffect>>> written = new EnumMap<>(Consumer.class);
        for (Consumer consumer : Consumer.values()) {
            written.put(consumer, sources.effects(consumer, ids).stream()
                    .collect(Collectors.groupingBy(RecordedEffect::orderId)));
        }
        for (OrderRow order : orders) {
            OrderCheck check = new OrderCheck(order, new OwedEffects.Order(order.amount(), order.status(),
                    order.skus()), settledBefore, textsKeptSince, findings, deadLettered);
            for (Consumer consumer : Consumer.values()) {
                String key = order.id() + ":" + consumer.label();
                boolean createRejected = rejected.contains(key)
                        || (check.owing().failed() && deadLetteredCreates.contains(key));
                check.compare(consumer, OwedEffects.owedBy(consumer, check.owing(), createRejected, config.pointsRate()),
                        written.get(consumer).getOrDefault(order.id(), List.of()), createRejected);
            }
        }
    }

    /** One order being checked, and where its findings go. */
    private record OrderCheck(OrderRow order, OwedEffects.Order owing, Instant settledBefore, Instant textsKeptSince,
            FindingTally findings, Map<String, List<OutcomeRow>> deadLettered) {

        /**
         * What {@code consumer} wrote against what it owes: an owed effect missing (once due), written
         * more than once or with another amount; an effect owed by nobody.
         */
        void compare(Consumer consumer, List<Effect> owed, List<RecordedEffect> written, boolean createRejected) {
            Map<String, List<RecordedEffect>> byKey = written.stream()
                    .collect(Collectors.groupingBy(e -> Effect.keyOf(e.kind(), e.subject()), TreeMap::new, Collectors.toList()));
            Set<String> owedKinds = owed.stream().map(Effect::kind).collect(Collectors.toSet());
            for (Effect owedEffect : owed) {
                Effect effect = asApplied(consumer, owedEffect, owed, byKey);
                if (effect == null) {
                    continue;
                }
                List<RecordedEffect> found = byKey.getOrDefault(effect.key(), List.of());
                if (found.isEmpty()) {
                    if (due(consumer, effect)) {
                        missing(consumer, missingDetail(consumer, effect));
                    }
                } else if (found.size() > 1) {
                    add(FindingKind.DUPLICATE_EFFECT, consumer, duplicateDetail(consumer, effect, found.size()));
                } else if (found.get(0).amount() != effect.amount()) {
                    add(FindingKind.WRONG_AMOUNT, consumer, wrongAmountDetail(consumer, effect, found.get(0).amount()));
                }
            }
            Set<String> owedKeys = owed.stream().map(Effect::key).collect(Collectors.toSet());
            byKey.forEach((key, found) -> {
                if (owedKeys.contains(key)) {
                    return;
                }
                RecordedEffect first = found.get(0);
                if (owedKinds.contains(first.kind())) {
                    add(FindingKind.WRONG_AMOUNT, consumer, first.kind() + " of " + first.subject()
                            + ", which the order does not contain");
                } else {
                    add(FindingKind.EFFECT_WITHOUT_ORDER, consumer, describe(consumer, first) + " although the order is "
                            + order.status() + (createRejected ? " and " + consumer.label() + " rejected its create" : ""));
                }
            });
            if (consumer == Consumer.SMS && !OwedEffects.confirmationMayBeSent(owing) && written.stream()
                    .anyMatch(t -> OwedEffects.CONFIRMATION.equals(t.kind()) && "SENT".equals(t.state()))) {
                add(FindingKind.EFFECT_WITHOUT_ORDER, consumer, "confirmation sent although the order failed");
            }
        }

        /**
         * The undo of a stock movement or a credit as owed for what its create wrote: of the written
         * amount, or none (null) when the create's effect is missing, which is reported once, there.
         * Texts and create effects are owed as they are.
         */
        private static Effect asApplied(Consumer consumer, Effect effect, List<Effect> owed,
                Map<String, List<RecordedEffect>> byKey) {
            if (consumer == Consumer.SMS || effect.answers() == OrderEventType.CREATE) {
                return effect;
            }
            Effect create = owed.stream()
                    .filter(e -> e.answers() == OrderEventType.CREATE && e.subject().equals(effect.subject()))
                    .findFirst().orElse(null);
            if (create == null) {
                return effect;
            }
            List<RecordedEffect> applied = byKey.getOrDefault(create.key(), List.of());
            if (applied.isEmpty()) {
                return null;
            }
            long amount = consumer == Consumer.INVENTORY ? applied.get(0).amount() : -applied.get(0).amount();
            return new Effect(effect.kind(), effect.subject(), amount, effect.answers());
        }

        /**
         * A missing effect counts once its event is older than the settle time (the create's: the order's
         * creation; a cancel's or fail's: the order's last update), and for a text only while
         * sms-service still keeps it: its purge deletes a finished text its retention after the last
         * attempt, which is never before that event.
         */
        private boolean due(Consumer consumer, Effect effect) {
            Instant event = effect.answers() == OrderEventType.CREATE ? order.createdAt() : order.updatedAt();
            if (event == null) {
                return true;
            }
            return event.isBefore(settledBefore) && (consumer != Consumer.SMS || !event.isBefore(textsKeptSince));
        }

        private String missingDetail(Consumer consumer, Effect effect) {
            String undone = effect.answers() == OrderEventType.CREATE ? ""
                    : order.status().toLowerCase(Locale.ROOT) + ", but ";
            return switch (consumer) {
                case INVENTORY -> undone + "no " + effect.kind() + " of "
                        + (undone.isEmpty() ? effect.amount() + " x " : "") + effect.subject();
                case POINTS -> undone + "no " + effect.kind() + " of " + Math.abs(effect.amount()) + " points";
                case SMS -> undone + "no " + TEXT_NAMES.get(effect.kind()) + " text (sms_outbox " + effect.kind() + ")";
            };
        }

        private static String duplicateDetail(Consumer consumer, Effect effect, int times) {
            return switch (consumer) {
                case INVENTORY -> times + " " + effect.kind() + " rows for " + effect.subject();
                case POINTS -> times + " " + effect.kind() + " entries";
                case SMS -> times + " " + TEXT_NAMES.get(effect.kind()) + " texts";
            };
        }

        private static String wrongAmountDetail(Consumer consumer, Effect effect, long found) {
            return switch (consumer) {
                case INVENTORY -> effect.kind() + " of " + found + " x " + effect.subject() + ", "
                        + (OwedEffects.DEDUCT.equals(effect.kind()) ? "ordered " : "deducted ") + effect.amount();
                case POINTS, SMS -> effect.kind() + " of " + found + " points, "
                        + (OwedEffects.ORDER_CREDIT.equals(effect.kind()) ? "expected " + effect.amount()
                                : "credited " + -effect.amount());
            };
        }

        private static String describe(Consumer consumer, RecordedEffect effect) {
            return switch (consumer) {
                case INVENTORY -> effect.kind() + " of " + effect.subject();
                case POINTS -> effect.kind();
                case SMS -> TEXT_NAMES.getOrDefault(effect.kind(), effect.kind()) + " text";
            };
        }

        void add(FindingKind kind, Consumer consumer, String detail) {
            findings.add(new Finding(kind, consumer.label(), order.id(), detail));
        }

        void missing(Consumer consumer, String detail) {
            String dlq = deadLettered.containsKey(order.id() + ":" + consumer.label())
                    ? " (the event was dead-lettered: see %DLQ% of " + consumer.label() + ")" : "";
            add(FindingKind.MISSING_EFFECT, consumer, detail + dlq);
        }
    }

    private void export(ReconciliationReport report) {
        report.counts().forEach((kind, count) -> gauges.gauge("orderflow.reconciliation.findings",
                "Findings of the last reconciliation run, by kind", Tags.of("kind", kind.label())).set(count));
        gauges.gauge("orderflow.reconciliation.last.run.timestamp.seconds",
                "When the last reconciliation run finished (Unix time)", Tags.empty())
                .set(report.ranAt().getEpochSecond());
    }
}
