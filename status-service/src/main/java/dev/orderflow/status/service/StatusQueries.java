package dev.orderflow.status.service;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import javax.sql.DataSource;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.sql.BatchSql;
import dev.orderflow.status.config.StatusServiceConfig;
import dev.orderflow.status.domain.ConsumerOutcome;
import dev.orderflow.status.domain.ConsumerState;
import dev.orderflow.status.domain.OrderConsumeStatus;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.domain.StateRules;

/**
 * Read side of the status tables: what the API shows. Short read-only transactions (a page and its
 * count, or statuses and their outcomes, come from one snapshot).
 */
@ApplicationScoped
public class StatusQueries {

    private static final String OPENED_STATUSES = " from " + OrderConsumeStatus.TABLE + " s where s.created_at is not null";

    private final DataSource dataSource;
    private final StatusServiceConfig config;

    @Inject
    public StatusQueries(DataSource dataSource, StatusServiceConfig config) {
        this.dataSource = dataSource;
        this.config = config;
    }

    /** @throws OrderStatusNotFoundException when the order is unknown or its create has not arrived */
    @Transactional
    public OrderStatusView find(String orderId) {
        return views(List.of(opened(orderId))).get(0);
    }

    private OrderConsumeStatus opened(String orderId) {
        List<OrderConsumeStatus> found = BatchSql.select(dataSource, "select " + OrderConsumeStatus.SELECT_COLUMNS
                + " from " + OrderConsumeStatus.TABLE + " s where s.order_id = ?", List.of(orderId),
                OrderConsumeStatus::read);
        if (found.isEmpty() || !found.get(0).opened()) {
            throw new OrderStatusNotFoundException(orderId, !found.isEmpty());
        }
        return found.get(0);
    }

    /**
     * The order's flags per event and its milestones, from one snapshot.
     *
     * @throws OrderStatusNotFoundException when the order is unknown or its create has not arrived
     */
    @Transactional
    public OrderHistoryView history(String orderId) {
        OrderConsumeStatus status = opened(orderId);
        List<ConsumerOutcome> outcomes = outcomes(List.of(orderId)).getOrDefault(orderId, List.of());
        List<OrderHistoryView.EventFlags> events = new ArrayList<>();
        events.add(eventFlags(OrderEventType.CREATE, "create", outcomes));
        if (status.cancelRequested() || reported(OrderEventType.CANCEL, outcomes)) {
            events.add(eventFlags(OrderEventType.CANCEL, "cancel", outcomes));
        }
        if (status.state == OrderState.FAILED || reported(OrderEventType.FAIL, outcomes)) {
            events.add(eventFlags(OrderEventType.FAIL, "compensation", outcomes));
        }
        return new OrderHistoryView(status.orderId, status.state, status.createdAt, status.cancelRequestedAt,
                status.completedAt, status.failedAt, status.cancelledAt,
                status.state == OrderState.FAILED || status.state == OrderState.ATTENTION ? status.failure() : null,
                events, status.customerId);
    }

    private static boolean reported(OrderEventType event, List<ConsumerOutcome> outcomes) {
        return outcomes.stream().anyMatch(o -> event.tag().equals(o.eventType));
    }

    private OrderHistoryView.EventFlags eventFlags(OrderEventType event, String name, List<ConsumerOutcome> outcomes) {
        return new OrderHistoryView.EventFlags(name, config.requiredConsumers().stream().map(consumer -> outcomes.stream()
                .filter(o -> event.tag().equals(o.eventType) && consumer.equals(o.consumer))
                .findFirst()
                .map(o -> new OrderHistoryView.ConsumerFlag(consumer, o.outcome, o.occurredAt, o.recordedAt, o.source,
                        o.outcome.failed() ? o.failure().failureClass() : null, o.reason))
                .orElse(new OrderHistoryView.ConsumerFlag(consumer, ConsumerState.PENDING, null, null, null, null, null)))
                .toList());
    }

    /** Opened orders in {@code state}, newest created first. */
    @Transactional
    public StatusPage list(OrderState state, int page, int size) {
        long total = BatchSql.select(dataSource, "select count(*)" + OPENED_STATUSES + " and s.state = ?",
                List.of(state), row -> row.getLong(1)).get(0);
        List<OrderConsumeStatus> rows = BatchSql.select(dataSource, "select " + OrderConsumeStatus.SELECT_COLUMNS
                + OPENED_STATUSES + " and s.state = ? order by s.created_at desc, s.order_id desc limit ? offset ?",
                List.of(state, size, (long) page * size), OrderConsumeStatus::read);
        return new StatusPage(state, page, size, total, views(rows));
    }

    /** Counts per state and the latency percentiles of recent completions. */
    @Transactional
    public StatusSummary summary() {
        Map<OrderState, Long> counts = new EnumMap<>(OrderState.class);
        for (OrderState state : OrderState.values()) {
            counts.put(state, 0L);
        }
        BatchSql.select(dataSource, "select s.state, count(*)" + OPENED_STATUSES + " group by s.state", List.of(),
                row -> counts.put(OrderState.valueOf(row.getString(1)), row.getLong(2)));
        long awaitingCreate = BatchSql.select(dataSource, "select count(*) from " + OrderConsumeStatus.TABLE
                + " where created_at is null", List.of(), row -> row.getLong(1)).get(0);
        List<String> required = config.requiredConsumers();
        // FAILED orders with fewer DONE compensations (outcomes of their fail event) than required consumers.
        List<Object> pendingParameters = new ArrayList<>(List.of(OrderState.FAILED, OrderEventType.FAIL.tag(),
                ConsumerState.DONE));
        pendingParameters.addAll(required);
        pendingParameters.add(required.size());
        long compensationsPending = BatchSql.select(dataSource, "select count(*)" + OPENED_STATUSES
                + " and s.state = ? and (select count(*) from " + ConsumerOutcome.TABLE + " o where o.order_id = s.order_id"
                + " and o.event_type = ? and o.outcome = ? and o.consumer in (" + BatchSql.parameters(required.size())
                + ")) < ?", pendingParameters, row -> row.getLong(1)).get(0);

        Duration window = config.summary().latencyWindow();
        long[] millis = BatchSql.select(dataSource, "select s.created_at, s.completed_at from " + OrderConsumeStatus.TABLE
                + " s where s.completed_at >= ? order by s.completed_at desc limit ?",
                List.of(Instant.now().minus(window), config.summary().latencyMaxSamples()),
                row -> Math.max(0, Duration.between(BatchSql.instant(row, "created_at"),
                        BatchSql.instant(row, "completed_at")).toMillis()))
                .stream().mapToLong(Long::longValue).sorted().toArray();
        return new StatusSummary(counts, awaitingCreate, compensationsPending, new StatusSummary.Latency(window,
                millis.length,
                percentile(millis, 50), percentile(millis, 90), percentile(millis, 99),
                millis.length == 0 ? null : millis[millis.length - 1]));
    }

    /**
     * Per window before {@code now}: the orders created in it per current state, and the completions in it;
     * all from one snapshot. Reads the indexes on (state, created_at) and completed_at.
     */
    @Transactional
    public List<StatusWindow> windows(Instant now, List<Duration> windows) {
        List<StatusWindow> result = new ArrayList<>();
        for (Duration window : windows) {
            Instant since = now.minus(window);
            Map<OrderState, Long> counts = new EnumMap<>(OrderState.class);
            for (OrderState state : OrderState.values()) {
                counts.put(state, 0L);
            }
            BatchSql.select(dataSource, "select s.state, count(*)" + OPENED_STATUSES
                    + " and s.created_at >= ? group by s.state", List.of(since),
                    row -> counts.put(OrderState.valueOf(row.getString(1)), row.getLong(2)));
            long completed = BatchSql.select(dataSource, "select count(*) from " + OrderConsumeStatus.TABLE
                    + " s where s.completed_at >= ?", List.of(since), row -> row.getLong(1)).get(0);
            result.add(new StatusWindow(window, since, counts, completed));
        }
        return result;
    }

    /** Among {@code orderIds}, the opened ones whose state is no longer PENDING. */
    @Transactional
    public Map<String, OrderState> settledAmong(Collection<String> orderIds) {
        Map<String, OrderState> settled = new HashMap<>();
        if (orderIds.isEmpty()) {
            return settled;
        }
        List<Object> parameters = new ArrayList<>(orderIds);
        parameters.add(OrderState.PENDING);
        BatchSql.select(dataSource, "select s.order_id, s.state" + OPENED_STATUSES + " and s.order_id in ("
                + BatchSql.parameters(orderIds.size()) + ") and s.state <> ?", parameters,
                row -> settled.put(row.getString(1), OrderState.valueOf(row.getString(2))));
        return settled;
    }

    /** Nearest-rank percentile of sorted values; null when there are none. */
    static Long percentile(long[] sorted, int percent) {
        if (sorted.length == 0) {
            return null;
        }
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private List<OrderStatusView> views(List<OrderConsumeStatus> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<String, List<ConsumerOutcome>> outcomesByOrder = outcomes(rows.stream().map(r -> r.orderId).toList());
        List<String> required = config.requiredConsumers();
        return rows.stream().map(s -> {
            List<ConsumerOutcome> outcomes = outcomesByOrder.getOrDefault(s.orderId, List.of());
            boolean failed = s.state == OrderState.FAILED;
            return new OrderStatusView(s.orderId, s.state,
                    StateRules.consumerStates(required, StateRules.trackedEvent(s.cancelRequested()), outcomes),
                    s.createdAt, s.completedAt, failed || s.state == OrderState.ATTENTION ? s.failure() : null,
                    failed ? StateRules.consumerStates(required, OrderEventType.FAIL, outcomes) : null, s.customerId);
        }).toList();
    }

    /** The outcomes of each of {@code orderIds} that has any. */
    private Map<String, List<ConsumerOutcome>> outcomes(List<String> orderIds) {
        Map<String, List<ConsumerOutcome>> outcomesByOrder = new HashMap<>();
        BatchSql.select(dataSource, "select o.order_id, " + ConsumerOutcome.SELECT_COLUMNS + " from "
                + ConsumerOutcome.TABLE + " o where o.order_id in (" + BatchSql.parameters(orderIds.size()) + ")",
                orderIds, row -> {
                    ConsumerOutcome outcome = ConsumerOutcome.read(row.getString("order_id"), row);
                    return outcomesByOrder.computeIfAbsent(outcome.orderId, id -> new ArrayList<>()).add(outcome);
                });
        return outcomesByOrder;
    }
}
