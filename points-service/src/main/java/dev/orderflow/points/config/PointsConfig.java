package dev.orderflow.points.config;

import java.math.BigDecimal;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of points-service, under {@code points}. */
@ConfigMapping(prefix = "points")
public interface PointsConfig {

    /**
     * Points credited per whole currency unit of the order amount; the credit is
     * {@code floor(amount × rate)} (25.99 at rate 1 → 25 points). A decimal ≥ 0; a change applies
     * to orders consumed after it, and a cancel always reverses exactly what its create credited.
     */
    @WithDefault("1")
    BigDecimal rate();
}
