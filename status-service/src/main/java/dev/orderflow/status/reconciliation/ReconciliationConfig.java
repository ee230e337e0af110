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

    /** The widest window a POST may ask for (every order and effect in it is read into memory). */
    @WithDefault("PT744H")
    Duration maxWindow();

    /**
     * An order younger than this (or cancelled more recently) may still be on its way to a
     * consumer: its missing effects are not reported yet. Duplicates and wrong amounts are.
     */
    @WithDefault("PT5M")
    Duration settleTime();

    /**
     * Points an order earns per whole currency unit: an ORDER_CREDIT must be floor(amount × rate).
     * Must equal points-service's {@code points.rate}.
     */
    @WithDefault("1")
    BigDecimal pointsRate();
}
