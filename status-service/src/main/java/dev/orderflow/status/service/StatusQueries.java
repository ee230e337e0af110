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
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.status.config.StatusServiceConfig;
import dev.orderflow.status.domain.ConsumerOutcome;
import dev.orderflow.status.domain.ConsumerState;
import dev.orderflow.status.domain.OrderConsumeStatus;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.domain.StateRules;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Sort;

/**
 * Read side of the status tables, through Hibernate: what the API shows. Short read-only transactions
 * (a page and its count, or statuses and their outcomes, come from one snapshot).
 */
@ApplicationScoped
public class StatusQueries {

    /** Orders whose create arrived: only those are shown. */
    private static final String OPENED = "createdAt is not null";

    private final EntityManager entityManager;
    private final StatusServiceConfig config;

    @Inject
    public StatusQueries(EntityManager entityManager, StatusServiceConfig config) {
        this.entityManager = entityManager;
        this.config = config;
    }

    /** @throws OrderStatusNotFoundException when the order is unknown or its create has not arrived */
    @Transactional
    public OrderStatusView find(String orderId) {
        return views(List.of(opened(orderId))).get(0);
    }

    private OrderConsumeStatus opened(String orderId) {
        OrderConsumeStatus found = OrderConsumeStatus.findById(orderId);
        if (found == null || !found.opened()) {
            throw new OrderStatusNotFoundException(orderId, found != null);
        }
        return found;
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
        PanacheQuery<OrderConsumeStatus> query = OrderConsumeStatus.find(OPENED + " and state = ?1",
                Sort.descending("createdAt", "orderId"), state);
        return new StatusPage(state, page, size, query.count(), views(query.page(page, size).list()));
    }

    /** Counts per state and the latency percentiles of recent completions. */
    @Transactional
    public StatusSummary summary() {
        Map<OrderState, Long> counts = countsByState(OPENED, Map.of());
        long awaitingCreate = OrderConsumeStatus.count("createdAt is null");
        List<String> required = config.requiredConsumers();
        // FAILED orders with fewer DONE compensations (outcomes of their fail event) than required consumers.
        long compensationsPending = entityManager.createQuery("select count(s) from OrderConsumeStatus s"
                + " where s.createdAt is not null and s.state = :failed and (select count(o) from ConsumerOutcome o"
                + " where o.orderId = s.orderId and o.eventType = :fail and o.outcome = :done and o.consumer in :required)"
                + " < :requiredCount", Long.class)
                .setParameter("failed", OrderState.FAILED).setParameter("fail", OrderEventType.FAIL.tag())
                .setParameter("done", ConsumerState.DONE).setParameter("required", required)
                .setParameter("requiredCount", (long) required.size())
                .getSingleResult();

        Duration window = config.summary().latencyWindow();
        long[] millis = entityManager.createQuery("select s.createdAt, s.completedAt from OrderConsumeStatus s"
                + " where s.completedAt >= :since order by s.completedAt desc", Object[].class)
                .setParameter("since", Instant.now().minus(window))
                .setMaxResults(config.summary().latencyMaxSamples())
                .getResultStream()
                .mapToLong(row -> Math.max(0, Duration.between((Instant) row[0], (Instant) row[1]).toMillis()))
                .sorted().toArray();
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
            Map<OrderState, Long> counts = countsByState(OPENED + " and createdAt >= :since", Map.of("since", since));
            long completed = OrderConsumeStatus.count("completedAt >= ?1", since);
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
        entityManager.createQuery("select orderId, state from OrderConsumeStatus where " + OPENED
                + " and orderId in :ids and state <> :pending", Object[].class)
                .setParameter("ids", orderIds).setParameter("pending", OrderState.PENDING)
                .getResultStream().forEach(row -> settled.put((String) row[0], (OrderState) row[1]));
        return settled;
    }

    /** The orders matching {@code where} per state, every state present. */
    private Map<OrderState, Long> countsByState(String where, Map<String, Object> parameters) {
        Map<OrderState, Long> counts = new EnumMap<>(OrderState.class);
        for (OrderState state : OrderState.values()) {
            counts.put(state, 0L);
        }
        TypedQuery<Object[]> query = entityManager.createQuery("select state, count(*) from OrderConsumeStatus where "
                + where + " group by state", Object[].class);
        parameters.forEach(query::setParameter);
        query.getResultStream().forEach(row -> counts.put((OrderState) row[0], (Long) row[1]));
        return counts;
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
        ConsumerOutcome.<ConsumerOutcome> stream("orderId in ?1", orderIds)
                .forEach(outcome -> outcomesByOrder.computeIfAbsent(outcome.orderId, id -> new ArrayList<>()).add(outcome));
        return outcomesByOrder;
    }
}
