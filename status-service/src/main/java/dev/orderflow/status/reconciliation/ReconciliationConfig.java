package dev.orderflow.status.reconciliation;

import java.math.BigDecimal;
import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The reconciliation of orders against the consumers' effects, under {@code orderflow.reconciliation}. */
@ConfigMapping(prefix = "orderflow.reconciliation")
public interface ReconciliationConfig {

    /** How often the scheduled run checks the last {@link #window()}; {@code PT0S} switches it off. */
    @WithDefault("PT1H")
    Duration interval();

    /** Orders created this far back are checked, by the scheduled run and by a POST without from/to. */
    @WithDefault("PT24H")
    Duration window();

    /** The widest window a POST may ask for (a run reads every order and effect in it). */
    @WithDefault("PT744H")
    Duration maxWindow();

    /**
     * An order younger than this (or cancelled more recently) may still be on its way to a
     * consumer: its missing effects are not reported yet. Duplicates and wrong amounts are.
     */
    @WithDefault("PT5M")
    Duration settleTime();

    /**
     * Orders read and checked at a time, with their effects. A run's memory grows with this and
     * with {@link #maxFindings()}, not with the window.
     */
    @WithDefault("500")
    int pageSize();

    /**
     * Findings a report lists at most; its counts still count every finding. Bounds a run's memory
     * when a consumer has lost a whole window of effects.
     */
    @WithDefault("1000")
    int maxFindings();

    /**
     * Points an order earns per whole currency unit: an ORDER_CREDIT must be floor(amount × rate).
     * Must equal points-service's {@code points.rate}.
     */
    @WithDefault("1")
    BigDecimal pointsRate();

    /**
     * How long sms-service keeps a finished text: its purge deletes SENT and FAILED rows this long
     * after their last attempt. A text that is missing for an order created (or cancelled) longer ago
     * than this may have been purged, so it is not reported. Must equal sms-service's
     * {@code sms-service.outbox.retention}; zero or negative is refused at start.
     */
    @WithDefault("P30D")
    Duration smsRetention();
}
