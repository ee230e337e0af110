package dev.orderflow.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.ToDoubleFunction;

import org.junit.jupiter.api.Test;

class MachineCeilingsTest {

    private static final Duration PROBE = Duration.ofMillis(300);

    /** A figure and how long it took to measure. */
    private record Measured(double figure, long elapsedNanos) {
    }

    /** Measures for {@link #PROBE}, checking that the figure did not return before its duration. */
    private static Measured measure(ToDoubleFunction<Duration> figure) {
        long started = System.nanoTime();
        double value = figure.applyAsDouble(PROBE);
        long elapsedNanos = System.nanoTime() - started;
        assertTrue(elapsedNanos >= PROBE.toNanos(), "returned after " + elapsedNanos + " ns, before its duration");
        return new Measured(value, elapsedNanos);
    }

    @Test
    void theOneCoreFigureCountsStepsForTheWholeDuration() {
        Measured perSecond = measure(MachineCeilings::oneCoreStepsPerSecond);

        // At least one pass over the table within the duration: any machine that runs the suite does many.
        assertTrue(perSecond.figure() >= MachineCeilings.CORE_TABLE_INTS / (perSecond.elapsedNanos() / 1e9),
                "not one pass over the table: " + perSecond.figure() + " steps/s");
    }

    @Test
    void theMemoryFigureFollowsOneCycleThroughTheWholeTable() {
        int size = 10_000;
        int[] next = MachineCeilings.randomCycle(size);

        boolean[] visited = new boolean[size];
        int position = 0;
        int steps = 0;
        do {
            assertFalse(visited[position], "slot " + position + " visited twice after " + steps + " steps");
            visited[position] = true;
            position = next[position];
            steps++;
        } while (position != 0);
        assertEquals(size, steps, "the cycle from slot 0 is shorter than the table");
    }

    @Test
    void theMemoryFigureIsTheTimeOfOneRead() {
        double nanosPerRead = measure(MachineCeilings::memoryReadNanos).figure();

        // A dependent read takes four cycles or more even from the L1 cache (0.5 ns at 8 GHz): less
        // means reads were counted but not done; more than 100 us is no memory's latency.
        assertTrue(nanosPerRead >= 0.5 && nanosPerRead < 100_000, "not a read's time: " + nanosPerRead + " ns");
    }
}
