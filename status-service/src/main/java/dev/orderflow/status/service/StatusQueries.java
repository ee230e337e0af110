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
import jakarta.transaction.Transactional;

import dev.orderflow.status.config.StatusServiceConfig;
import dev.orderflow.status.domain.ConsumerOutcome;
import dev.orderflow.status.domain.OrderConsumeStatus;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.domain.StateRules;

/** Read side of the status tables: what the API shows. Short read-only transactions. */
@ApplicationScoped
public class StatusQueries {

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
        OrderConsumeStatus status = entityManager.find(OrderConsumeStatus.class, orderId);
        if (status == null || !status.opened()) {
            throw new OrderStatusNotFoundException(orderId, status != null);
        }
        return views(List.of(status)).get(0);
    }

    /** Opened orders in {@code state}, newest created first. */
    @Transactional
    public StatusPage list(OrderState state, int page, int size) {
        long total = entityManager.createQuery(
                "select count(s) from OrderConsumeStatus s where s.state = :state and s.createdAt is not null", Long.class)
                .setParameter("state", state)
                .getSingleResult();
        List<OrderConsumeStatus> rows = entityManager.createQuery("""
                select s from OrderConsumeStatus s where s.state = :state and s.createdAt is not null
                order by s.createdAt desc, s.orderId desc""", OrderConsumeStatus.class)
                .setParameter("state", state)
                .setFirstResult(page * size)
                .setMaxResults(size)
                .getResultList();
        return new StatusPage(state, page, size, total, views(rows));
    }

    /** Counts per state and the latency percentiles of recent completions. */
    @Transactional
    public StatusSummary summary() {
        Map<OrderState, Long> counts = new EnumMap<>(OrderState.class);
        for (OrderState state : OrderState.values()) {
            counts.put(state, 0L);
        }
        entityManager.createQuery("""
                select s.state, count(s) from OrderConsumeStatus s where s.createdAt is not null
                group by s.state""", Object[].class)
                .getResultList()
                .forEach(row -> counts.put((OrderState) row[0], (Long) row[1]));
        long awaitingCreate = entityManager.createQuery(
                "select count(s) from OrderConsumeStatus s where s.createdAt is null", Long.class).getSingleResult();

        Duration window = config.summary().latencyWindow();
        List<Object[]> completions = entityManager.createQuery("""
                select s.createdAt, s.completedAt from OrderConsumeStatus s
                where s.completedAt >= :since order by s.completedAt desc""", Object[].class)
                .setParameter("since", Instant.now().minus(window))
                .setMaxResults(config.summary().latencyMaxSamples())
                .getResultList();
        long[] millis = completions.stream()
                .mapToLong(row -> Math.max(0, Duration.between((Instant) row[0], (Instant) row[1]).toMillis()))
                .sorted()
                .toArray();
        return new StatusSummary(counts, awaitingCreate, new StatusSummary.Latency(window, millis.length,
                percentile(millis, 50), percentile(millis, 90), percentile(millis, 99),
                millis.length == 0 ? null : millis[millis.length - 1]));
    }

    /** Among {@code orderIds}, the opened ones whose state is no longer PENDING. */
    @Transactional
    public Map<String, OrderState> settledAmong(Collection<String> orderIds) {
        Map<String, OrderState> settled = new HashMap<>();
        if (orderIds.isEmpty()) {
            return settled;
        }
        entityManager.createQuery("""
                select s.orderId, s.state from OrderConsumeStatus s
                where s.orderId in :ids and s.createdAt is not null and s.state <> :pending""", Object[].class)
                .setParameter("ids", orderIds)
                .setParameter("pending", OrderState.PENDING)
                .getResultList()
                .forEach(row -> settled.put((String) row[0], (OrderState) row[1]));
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
        Map<String, List<ConsumerOutcome>> outcomesByOrder = new HashMap<>();
        entityManager.createQuery("select o from ConsumerOutcome o where o.orderId in :ids", ConsumerOutcome.class)
                .setParameter("ids", rows.stream().map(r -> r.orderId).toList())
                .getResultList()
                .forEach(o -> outcomesByOrder.computeIfAbsent(o.orderId, id -> new ArrayList<>()).add(o));
        List<String> required = config.requiredConsumers();
        return rows.stream().map(s -> new OrderStatusView(s.orderId, s.state,
                StateRules.consumerStates(required, StateRules.trackedEvent(s.cancelRequested()),
                        outcomesByOrder.getOrDefault(s.orderId, List.of())),
                s.createdAt, s.completedAt, s.state == OrderState.FAILED ? s.failure() : null)).toList();
    }
}
