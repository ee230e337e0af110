package dev.orderflow.load;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class MachineCeilingsTest {

    @Test
    void theOneCoreFigureCountsStepsForTheWholeDuration() {
        Duration duration = Duration.ofMillis(300);
        long started = System.nanoTime();

        double perSecond = MachineCeilings.oneCoreStepsPerSecond(duration);

        long elapsedNanos = System.nanoTime() - started;
        assertTrue(elapsedNanos >= duration.toNanos(), "returned after " + elapsedNanos + " ns, before its duration");
        // At least one pass over the table within the duration: any machine that runs the suite does many.
        assertTrue(perSecond >= MachineCeilings.CORE_TABLE_INTS / (elapsedNanos / 1e9),
                "not one pass over the table: " + perSecond + " steps/s");
    }
}
