package dev.orderflow.status.lag;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.rocketmq.GroupLag;
import dev.orderflow.rocketmq.RocketMQAdmin;
import dev.orderflow.status.config.PeriodicJobs;
import dev.orderflow.status.service.SettableGauges;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduler;

/**
 * Measures the lag of every configured consumer group through the extension's
 * {@link RocketMQAdmin}, every {@link LagConfig#sampleInterval()}, keeps the last
 * {@link LagConfig#historySize()} samples per group for {@code GET /lag}, and exports the latest as
 * Prometheus gauges ({@code orderflow_lag_messages}, {@code orderflow_lag_oldest_age_seconds},
 * {@code orderflow_retry_depth_messages}, {@code orderflow_dlq_depth_messages},
 * {@code orderflow_consumers_online}, {@code orderflow_half_messages_parked}).
 *
 * <p>A round measures every group or none: when the broker cannot be asked, the previous figures
 * stay (gauges and API) and the snapshot is marked stale until a round succeeds again.
 */
@ApplicationScoped
public class LagMonitor {

    private static final Logger LOG = Logger.getLogger(LagMonitor.class);

    /**
     * What GET /lag shows.
     *
     * @param measuredAt         when the figures were measured
     * @param stale              true when the last round failed and these are older figures
     * @param groups             one entry per configured group, in configuration order
     * @param halfMessagesParked depth of {@link RocketMQAdmin#HALF_MESSAGES_PARKED_TOPIC}
     */
    public record Snapshot(Instant measuredAt, boolean stale, List<GroupLagFigures> groups, long halfMessagesParked) {
    }

    private final RocketMQAdmin admin;
    private final LagConfig config;
    private final Scheduler scheduler;
    /** Ages are kept in milliseconds and exported in seconds. */
    private final SettableGauges gauges;
    private final Map<String, Deque<LagHistoryPoint>> history = new HashMap<>();
    private volatile Snapshot latest;

    @Inject
    public LagMonitor(RocketMQAdmin admin, LagConfig config, MeterRegistry registry, Scheduler scheduler) {
        this.admin = admin;
        this.config = config;
        this.gauges = new SettableGauges(registry);
        this.scheduler = scheduler;
        if (config.historySize() < 1) {
            throw new IllegalArgumentException("orderflow.lag.history-size must be at least 1, was "
                    + config.historySize());
        }
    }

    void start(@Observes StartupEvent event) {
        PeriodicJobs.scheduleUnlessOff(scheduler, "Consumer-lag sampling", config.sampleInterval(),
                "orderflow.lag.sample-interval", this::sampleQuietly);
    }

    /** The figures of the last round, or empty when no round has succeeded yet. */
    public Optional<Snapshot> latest() {
        return Optional.ofNullable(latest);
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException e) {
            // The broker may be restarting: keep the last figures, say they are stale, try next round.
            Snapshot previous = latest;
            if (previous != null && !previous.stale()) {
                latest = new Snapshot(previous.measuredAt(), true, previous.groups(), previous.halfMessagesParked());
            }
            LOG.warnf("Consumer lag not measured (%s); keeping the figures of %s", e.getMessage(),
                    previous == null ? "no earlier round" : previous.measuredAt());
        }
    }

    /** Measures every configured group now; public for the tests and an on-demand refresh. */
    public synchronized Snapshot sample() {
        Instant at = Instant.now();
        List<GroupLag> measured = new ArrayList<>();
        for (String group : config.groups()) {
            measured.add(admin.lag(group));
        }
        long halfParked = admin.topicDepth(RocketMQAdmin.HALF_MESSAGES_PARKED_TOPIC);

        List<GroupLagFigures> groups = new ArrayList<>();
        for (GroupLag lag : measured) {
            GroupLagFigures figures = GroupLagFigures.of(lag);
            Deque<LagHistoryPoint> points = history.computeIfAbsent(lag.consumerGroup(), g -> new ArrayDeque<>());
            points.addLast(new LagHistoryPoint(at, figures.behind(), figures.oldestUnconsumedAgeSeconds(),
                    figures.dlqDepth()));
            while (points.size() > config.historySize()) {
                points.removeFirst();
            }
            groups.add(figures.withHistory(List.copyOf(points)));
            export(figures);
        }
        gauges.gauge("orderflow.half.messages.parked", "Transactional half messages parked in "
                + "TRANS_CHECK_MAX_TIME_TOPIC after too many check-backs (they need a manual resume)", Tags.empty())
                .set(halfParked);
        Snapshot snapshot = new Snapshot(at, false, List.copyOf(groups), halfParked);
        latest = snapshot;
        return snapshot;
    }

    private void export(GroupLagFigures figures) {
        Tags group = Tags.of("group", figures.group());
        gauges.gauge("orderflow.retry.depth.messages", "Messages waiting in the group's retry topic", group)
                .set(figures.retryDepth());
        gauges.gauge("orderflow.dlq.depth.messages", "Messages in the group's dead-letter queue", group)
                .set(figures.dlqDepth());
        gauges.gauge("orderflow.consumers.online", "Consumer clients of the group connected to the broker", group)
                .set(figures.consumersOnline());
        for (TopicLagFigures topic : figures.topics()) {
            Tags tags = group.and("topic", topic.topic());
            gauges.gauge("orderflow.lag.messages", "Messages stored but not yet consumed by the group", tags)
                    .set(topic.behind());
            gauges.gauge("orderflow.lag.oldest.age.seconds", "Age of the oldest message the group has not consumed "
                    + "(0 when nothing is behind)", tags, 1000).set(topic.oldestUnconsumedAgeSeconds() == null ? 0
                            : Math.round(topic.oldestUnconsumedAgeSeconds() * 1000));
        }
    }
}
