package dev.orderflow.status.reconciliation;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** Settings that would make reconciliation report wrongly are refused when it is created (at start). */
class ReconciliationConfigCheckTest {

    @Test
    void anSmsRetentionThatIsNotPositiveIsRefusedNamingTheProperty() {
        for (Duration retention : new Duration[] {Duration.ZERO, Duration.ofDays(-1)}) {
            assertRefused("smsRetention", retention, "orderflow.reconciliation.sms-retention must be positive");
        }
    }

    @Test
    void windowsThatAreNotPositiveAreRefused() {
        assertRefused("window", Duration.ZERO, "orderflow.reconciliation.window must be positive");
        assertRefused("maxWindow", Duration.ofHours(-1), "orderflow.reconciliation.max-window must be positive");
    }

    @Test
    void aNegativeSettleTimeOrPointsRateIsRefused() {
        assertRefused("settleTime", Duration.ofMinutes(-5), "orderflow.reconciliation.settle-time must not be negative");
        assertRefused("pointsRate", new BigDecimal("-1"), "orderflow.reconciliation.points-rate must not be negative");
    }

    @Test
    void theDefaultsAndAZeroSettleTimeAreAccepted() {
        new Reconciler(null, config(Map.of()), new SimpleMeterRegistry(), null);
        new Reconciler(null, config(Map.of("settleTime", Duration.ZERO)), new SimpleMeterRegistry(), null);
    }

    private static void assertRefused(String setting, Object value, String message) {
        ReconciliationConfig config = config(Map.of(setting, value));
        assertThatThrownBy(() -> new Reconciler(null, config, new SimpleMeterRegistry(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasMessageContaining(value.toString());
    }

    /** The defaults of {@link ReconciliationConfig}, with {@code overrides} by method name. */
    private static ReconciliationConfig config(Map<String, Object> overrides) {
        Map<String, Object> values = new java.util.HashMap<>(Map.of("interval", Duration.ofHours(1), "window",
                Duration.ofHours(24), "maxWindow", Duration.ofHours(744), "settleTime", Duration.ofMinutes(5),
                "pageSize", 500, "maxFindings", 1000, "pointsRate", BigDecimal.ONE, "smsRetention",
                Duration.ofDays(30)));
        values.putAll(overrides);
        return (ReconciliationConfig) Proxy.newProxyInstance(ReconciliationConfig.class.getClassLoader(),
                new Class<?>[] {ReconciliationConfig.class}, (proxy, method, args) -> {
                    if (!values.containsKey(method.getName())) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    return values.get(method.getName());
                });
    }
}
