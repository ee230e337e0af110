package dev.orderflow.status.lag;

import java.time.Duration;
import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Consumer-lag sampling ({@code GET /lag}, the {@code orderflow_lag_*} gauges), under {@code orderflow.lag}. */
@ConfigMapping(prefix = "orderflow.lag")
public interface LagConfig {

    /**
     * Consumer groups whose lag is measured: the required consumers' groups and this service's own
     * (order events, reports, one per dead-letter queue). A group nobody consumes shows 0 behind
     * and 0 consumers online.
     */
    @WithDefault("inventory_group,sms_group,points_group,status_group,status_report_group,"
            + "status_dlq_inventory,status_dlq_sms,status_dlq_points")
    List<String> groups();

    /** How often every group is measured; {@code PT0S} switches sampling off (GET /lag then answers 503). */
    @WithDefault("PT10S")
    Duration sampleInterval();

    /** Samples kept per group for {@code history} in GET /lag (60 × 10 s = the last 10 minutes). */
    @WithDefault("60")
    int historySize();
}
