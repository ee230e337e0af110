package dev.orderflow.status.reconciliation;

import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.status.config.PeriodicJobs;
import dev.orderflow.status.reconciliation.ReconciliationSources.OrderRow;
import dev.orderflow.status.reconciliation.ReconciliationSources.OutcomeRow;
import dev.orderflow.status.reconciliation.ReconciliationSources.PointsLedgerRow;
import dev.orderflow.status.reconciliation.ReconciliationSources.SmsRow;
import dev.orderflow.status.reconciliation.ReconciliationSources.StockMovementRow;
import dev.orderflow.status.service.SettableGauges;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduler;

/**
 * Compares every order created in a window with each consumer's effect and reports what
 * disagrees: a missing effect, an effect without order, an effect applied twice, a wrong amount.
 *
 * <p>What each consumer owes an order (unless this service recorded its create as REJECTED, e.g.
 * insufficient stock or cancel-before-create, which owes nothing):
 * <ul>
 * <li>inventory: one DEDUCT stock_movement per SKU, of the units ordered; if cancelled, one RESTORE
 * per DEDUCT of the same units;</li>
 * <li>points: one ORDER_CREDIT of floor(amount × rate); if cancelled, one ORDER_REVERSAL of minus the
 * credit;</li>
 * <li>sms: one CREATE text; if cancelled, one CANCEL text.</li>
 * </ul>
 * A reversal of an order that is not cancelled, and an effect written in the window whose order does
 * not exist, are effects without order. Missing effects of orders younger than the settle time (or
 * cancelled more recently) are not reported: they may still be on their way. Missing texts of orders
 * created (or cancelled) longer ago than sms-service's retention are not reported either: its purge
 * may have deleted them ({@link ReconciliationConfig#smsRetention()}).
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

    static final String INVENTORY = "inventory";
    static final String POINTS = "points";
    static final String SMS = "sms";

    private static final Logger LOG = Logger.getLogger(Reconciler.class);
    private static final String CANCELLED = "CANCELLED";
    private static final String FAILED = "FAILED";

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
            // A database being down must not stop the schedule; the next run checks the window again.
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
        for (String consumer : List.of(INVENTORY, POINTS, SMS)) {
            sources.forEachEffectOrderIdChunk(consumer, from, to, config.pageSize(), named -> {
                Set<String> missing = new TreeSet<>(named);
                missing.removeAll(sources.existingOrders(named));
                for (String orderId : missing) {
                    findings.add(new Finding(FindingKind.EFFECT_WITHOUT_ORDER, consumer, orderId,
                            "an effect of " + consumer + " names order " + orderId + ", which does not exist"));
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
        Map<String, Map<String, Long>> skus = sources.orderedSkus(ids).stream()
                .collect(Collectors.groupingBy(ReconciliationSources.OrderedSku::orderId,
                        Collectors.toMap(ReconciliationSources.OrderedSku::sku,
                                ReconciliationSources.OrderedSku::quantity)));
        List<OutcomeRow> outcomes = sources.outcomes(ids);
        Set<String> rejected = outcomes.stream()
                .filter(o -> "create".equalsIgnoreCase(o.eventType()) && "REJECTED".equals(o.outcome()))
                .map(o -> o.orderId() + ":" + o.consumer())
                .collect(Collectors.toSet());
        Map<String, List<OutcomeRow>> deadLettered = outcomes.stream()
                .filter(o -> "DEAD_LETTERED".equals(o.outcome()))
                .collect(Collectors.groupingBy(o -> o.orderId() + ":" + o.consumer()));
        Map<String, List<StockMovementRow>> movements = sources.stockMovements(ids).stream()
                .collect(Collectors.groupingBy(StockMovementRow::orderId));
        Map<String, List<PointsLedgerRow>> ledger = sources.pointsLedger(ids).stream()
                .collect(Collectors.groupingBy(PointsLedgerRow::orderId));
        Map<String, List<SmsRow>> texts = sources.smsOutbox(ids).stream()
                .collect(Collectors.groupingBy(SmsRow::orderId));
        for (OrderRow order : orders) {
            OrderCheck check = new OrderCheck(order, settledBefore, textsKeptSince, findings, deadLettered);
            if (!rejected.contains(order.id() + ":" + INVENTORY)) {
                checkInventory(check, skus.getOrDefault(order.id(), Map.of()),
                        movements.getOrDefault(order.id(), List.of()));
            }
            if (!rejected.contains(order.id() + ":" + POINTS)) {
                checkPoints(check, ledger.getOrDefault(order.id(), List.of()));
            }
            if (!rejected.contains(order.id() + ":" + SMS)) {
                checkSms(check, texts.getOrDefault(order.id(), List.of()));
            }
        }
    }

    /** One order being checked, and where its findings go. */
    private record OrderCheck(OrderRow order, Instant settledBefore, Instant textsKeptSince, FindingTally findings,
            Map<String, List<OutcomeRow>> deadLettered) {

        boolean cancelled() {
            return CANCELLED.equals(order.status());
        }

        /** A FAILED order: its effects are compensated (the fail event), whatever its consumers did with the create. */
        boolean failed() {
            return FAILED.equals(order.status());
        }

        /** Missing effects of the create count once the order is older than the settle time. */
        boolean createSettled() {
            return order.createdAt().isBefore(settledBefore);
        }

        /** Missing reversals count once the cancel (the order's last update) is older than the settle time. */
        boolean cancelSettled() {
            return order.updatedAt() == null || order.updatedAt().isBefore(settledBefore);
        }

        /**
         * Whether the create's text, written after the order, is still kept: sms-service purges a
         * finished text its retention after the last attempt, which is never before the order.
         */
        boolean createTextKept() {
            return !order.createdAt().isBefore(textsKeptSince);
        }

        /** Whether the cancellation text, written after the cancel (the order's last update), is still kept. */
        boolean cancelTextKept() {
            return order.updatedAt() == null || !order.updatedAt().isBefore(textsKeptSince);
        }

        void add(FindingKind kind, String consumer, String detail) {
            findings.add(new Finding(kind, consumer, order.id(), detail));
        }

        void missing(String consumer, String detail) {
            String dlq = deadLettered.containsKey(order.id() + ":" + consumer)
                    ? " (the event was dead-lettered: see %DLQ% of " + consumer + ")" : "";
            add(FindingKind.MISSING_EFFECT, consumer, detail + dlq);
        }
    }

    private static void checkInventory(OrderCheck check, Map<String, Long> ordered, List<StockMovementRow> rows) {
        Map<String, List<StockMovementRow>> deducts = bySku(rows, "DEDUCT");
        Map<String, List<StockMovementRow>> restores = bySku(rows, "RESTORE");
        for (Map.Entry<String, Long> line : ordered.entrySet()) {
            List<StockMovementRow> deducted = deducts.getOrDefault(line.getKey(), List.of());
            if (deducted.isEmpty()) {
                if (check.createSettled()) {
                    check.missing(INVENTORY, "no DEDUCT of " + line.getValue() + " x " + line.getKey());
                }
            } else if (deducted.size() > 1) {
                check.add(FindingKind.DUPLICATE_EFFECT, INVENTORY, deducted.size() + " DEDUCT rows for "
                        + line.getKey());
            } else if (deducted.get(0).quantity() != line.getValue()) {
                check.add(FindingKind.WRONG_AMOUNT, INVENTORY, "DEDUCT of " + deducted.get(0).quantity() + " x "
                        + line.getKey() + ", ordered " + line.getValue());
            }
        }
        deducts.keySet().stream().filter(sku -> !ordered.containsKey(sku)).sorted().forEach(sku -> check.add(
                FindingKind.WRONG_AMOUNT, INVENTORY, "DEDUCT of " + sku + ", which the order does not contain"));
        if (!check.cancelled() && !check.failed()) {
            restores.keySet().stream().sorted().forEach(sku -> check.add(FindingKind.EFFECT_WITHOUT_ORDER, INVENTORY,
                    "RESTORE of " + sku + " although the order is neither cancelled nor failed"));
            return;
        }
        for (Map.Entry<String, List<StockMovementRow>> deduct : deducts.entrySet()) {
            List<StockMovementRow> restored = restores.getOrDefault(deduct.getKey(), List.of());
            long deductedUnits = deduct.getValue().get(0).quantity();
            if (restored.isEmpty()) {
                if (check.cancelSettled()) {
                    check.missing(INVENTORY, (check.failed() ? "failed" : "cancelled") + ", but no RESTORE of "
                            + deduct.getKey());
                }
            } else if (restored.size() > 1) {
                check.add(FindingKind.DUPLICATE_EFFECT, INVENTORY, restored.size() + " RESTORE rows for "
                        + deduct.getKey());
            } else if (restored.get(0).quantity() != deductedUnits) {
                check.add(FindingKind.WRONG_AMOUNT, INVENTORY, "RESTORE of " + restored.get(0).quantity() + " x "
                        + deduct.getKey() + ", deducted " + deductedUnits);
            }
        }
    }

    private void checkPoints(OrderCheck check, List<PointsLedgerRow> rows) {
        List<PointsLedgerRow> credits = rows.stream().filter(r -> "ORDER_CREDIT".equals(r.reason())).toList();
        // A cancel's reversal, or for a failed order its compensation: the same points taken back, once.
        String reversalReason = check.failed() ? "ORDER_FAILURE_REVERSAL" : "ORDER_REVERSAL";
        String otherReason = check.failed() ? "ORDER_REVERSAL" : "ORDER_FAILURE_REVERSAL";
        List<PointsLedgerRow> reversals = rows.stream().filter(r -> reversalReason.equals(r.reason())).toList();
        if (rows.stream().anyMatch(r -> otherReason.equals(r.reason()))) {
            check.add(FindingKind.EFFECT_WITHOUT_ORDER, POINTS, otherReason + " although the order is "
                    + check.order().status());
        }
        long expected = check.order().amount().multiply(config.pointsRate()).setScale(0, RoundingMode.FLOOR)
                .longValueExact();
        if (credits.isEmpty()) {
            if (check.createSettled()) {
                check.missing(POINTS, "no ORDER_CREDIT of " + expected + " points");
            }
        } else if (credits.size() > 1) {
            check.add(FindingKind.DUPLICATE_EFFECT, POINTS, credits.size() + " ORDER_CREDIT entries");
        } else if (credits.get(0).points() != expected) {
            check.add(FindingKind.WRONG_AMOUNT, POINTS, "ORDER_CREDIT of " + credits.get(0).points()
                    + " points, expected " + expected);
        }
        if (!check.cancelled() && !check.failed()) {
            if (!reversals.isEmpty()) {
                check.add(FindingKind.EFFECT_WITHOUT_ORDER, POINTS,
                        "ORDER_REVERSAL although the order is not cancelled");
            }
            return;
        }
        if (credits.isEmpty()) {
            return;
        }
        long credited = credits.get(0).points();
        if (reversals.isEmpty()) {
            if (check.cancelSettled()) {
                check.missing(POINTS, (check.failed() ? "failed" : "cancelled") + ", but no " + reversalReason + " of "
                        + credited + " points");
            }
        } else if (reversals.size() > 1) {
            check.add(FindingKind.DUPLICATE_EFFECT, POINTS, reversals.size() + " " + reversalReason + " entries");
        } else if (reversals.get(0).points() != -credited) {
            check.add(FindingKind.WRONG_AMOUNT, POINTS, reversalReason + " of " + reversals.get(0).points()
                    + " points, credited " + credited);
        }
    }

    private static void checkSms(OrderCheck check, List<SmsRow> rows) {
        long confirmations = rows.stream().filter(r -> "CREATE".equalsIgnoreCase(r.eventType())).count();
        long notices = rows.stream().filter(r -> "CANCEL".equalsIgnoreCase(r.eventType())).count();
        long failureTexts = rows.stream().filter(r -> "FAIL".equalsIgnoreCase(r.eventType())).count();
        if (check.failed()) {
            // Never confirmed (the confirmation withdrawn, or never recorded when the fail came first); one failure text.
            if (rows.stream().anyMatch(r -> "CREATE".equalsIgnoreCase(r.eventType()) && "SENT".equals(r.status()))) {
                check.add(FindingKind.EFFECT_WITHOUT_ORDER, SMS, "confirmation sent although the order failed");
            }
            if (failureTexts == 0 && check.cancelSettled() && check.cancelTextKept()) {
                check.missing(SMS, "failed, but no failure text (sms_outbox FAIL)");
            } else if (failureTexts > 1) {
                check.add(FindingKind.DUPLICATE_EFFECT, SMS, failureTexts + " failure texts");
            }
            return;
        }
        if (failureTexts > 0) {
            check.add(FindingKind.EFFECT_WITHOUT_ORDER, SMS, "failure text although the order did not fail");
        }
        if (confirmations == 0 && check.createSettled() && check.createTextKept()) {
            check.missing(SMS, "no confirmation text (sms_outbox CREATE)");
        } else if (confirmations > 1) {
            check.add(FindingKind.DUPLICATE_EFFECT, SMS, confirmations + " confirmation texts");
        }
        if (!check.cancelled()) {
            if (notices > 0) {
                check.add(FindingKind.EFFECT_WITHOUT_ORDER, SMS,
                        "cancellation text although the order is not cancelled");
            }
        } else if (notices == 0 && check.cancelSettled() && check.cancelTextKept()) {
            check.missing(SMS, "cancelled, but no cancellation text (sms_outbox CANCEL)");
        } else if (notices > 1) {
            check.add(FindingKind.DUPLICATE_EFFECT, SMS, notices + " cancellation texts");
        }
    }

    private static Map<String, List<StockMovementRow>> bySku(List<StockMovementRow> rows, String kind) {
        return rows.stream().filter(r -> kind.equals(r.kind()))
                .collect(Collectors.groupingBy(StockMovementRow::sku));
    }

    private void export(ReconciliationReport report) {
        report.counts().forEach((kind, count) -> gauges.gauge("orderflow.reconciliation.findings",
                "Findings of the last reconciliation run, by kind", Tags.of("kind", kind.label())).set(count));
        gauges.gauge("orderflow.reconciliation.last.run.timestamp.seconds",
                "When the last reconciliation run finished (Unix time)", Tags.empty())
                .set(report.ranAt().getEpochSecond());
    }
}
