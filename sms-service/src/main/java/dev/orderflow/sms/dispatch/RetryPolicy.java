package dev.orderflow.sms.dispatch;

import java.time.Duration;

import dev.orderflow.sms.config.SmsServiceConfig;

/**
 * Exponential back-off: after attempt n fails, wait {@code base × 2^(n-1)}, at most {@code max};
 * no attempt after {@code maxAttempts}.
 */
record RetryPolicy(Duration baseDelay, Duration maxDelay, int maxAttempts) {

    RetryPolicy {
        if (baseDelay.isNegative() || baseDelay.isZero()) {
            throw new IllegalArgumentException("sms-service.retry.base-delay must be positive, was " + baseDelay);
        }
        if (maxDelay.compareTo(baseDelay) < 0) {
            throw new IllegalArgumentException("sms-service.retry.max-delay (" + maxDelay
                    + ") must not be shorter than base-delay (" + baseDelay + ")");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("sms-service.retry.max-attempts must be at least 1, was " + maxAttempts);
        }
    }

    static RetryPolicy of(SmsServiceConfig.Retry config) {
        return new RetryPolicy(config.baseDelay(), config.maxDelay(), config.maxAttempts());
    }

    /** Whether another attempt may follow a transient failure of attempt {@code attempt} (1-based). */
    boolean mayRetryAfter(int attempt) {
        return attempt < maxAttempts;
    }

    /** How long to wait after attempt {@code attempt} (1-based) failed. */
    Duration delayAfter(int attempt) {
        int doublings = Math.max(0, attempt - 1);
        // 2^30 × any sensible base already exceeds every sensible max: stop doubling there (no overflow).
        if (doublings >= 30) {
            return maxDelay;
        }
        Duration delay = baseDelay.multipliedBy(1L << doublings);
        return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
    }
}
