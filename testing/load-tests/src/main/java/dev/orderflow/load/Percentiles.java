package dev.orderflow.load;

import java.util.Arrays;
import java.util.Collection;

/** Nearest-rank percentiles of a set of durations (any unit; the caller keeps it). */
public final class Percentiles {

    private final long[] sorted;

    public Percentiles(Collection<Long> values) {
        this.sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    public int count() {
        return sorted.length;
    }

    /**
     * The smallest value with at least {@code percent} % of the values at or below it (nearest
     * rank); 0 for no values.
     */
    public long at(double percent) {
        if (percent <= 0 || percent > 100) {
            throw new IllegalArgumentException("percent must be in (0, 100], was " + percent);
        }
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }

    public long max() {
        return sorted.length == 0 ? 0 : sorted[sorted.length - 1];
    }

    @Override
    public String toString() {
        return "Percentiles" + Arrays.toString(sorted.length > 10 ? Arrays.copyOf(sorted, 10) : sorted);
    }
}
