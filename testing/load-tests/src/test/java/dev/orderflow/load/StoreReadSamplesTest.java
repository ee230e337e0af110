package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class StoreReadSamplesTest {

    @Test
    void theSummaryIsTheMeanOfTheSamplesPerSecondAndPerOrder() {
        Iterator<SuiteCounters.StoreReads> readings = List.of(new SuiteCounters.StoreReads(280, 90),
                new SuiteCounters.StoreReads(300, 70)).iterator();
        LoadRun.StoreReadSamples samples = new LoadRun.StoreReadSamples(readings::next);
        samples.sample();
        samples.sample();

        assertThat(samples.summary(90)).isEqualTo("broker store reads (pulls) while submitting, mean of 2 10 s windows: "
                + "290/s found messages + 80/s found none = 4.11 per order at 90.0 orders/s");
    }

    @Test
    void aFailedSampleIsReportedNotDropped() {
        LoadRun.StoreReadSamples samples = new LoadRun.StoreReadSamples(() -> {
            throw new IllegalStateException("broker gone");
        });
        samples.sample();

        assertThat(samples.summary(90)).isEqualTo("broker store reads (pulls): not sampled (broker gone)");
    }

    @Test
    void withoutSamplesTheSummarySaysSo() {
        assertThat(new LoadRun.StoreReadSamples(() -> new SuiteCounters.StoreReads(1, 1)).summary(90))
                .isEqualTo("broker store reads (pulls): not sampled (the orders were submitted in less than 10 s)");
    }

    @Test
    void theBrokersRateFieldsStartWithTheTenSecondRate() {
        assertThat(SuiteCounters.tenSecondRate(Map.of("getFoundTps", "229.5 166.1 "), "getFoundTps")).isEqualTo(229.5);
        assertThat(SuiteCounters.tenSecondRate(Map.of("getMissTps", "85.5  "), "getMissTps")).isEqualTo(85.5);
        assertThatThrownBy(() -> SuiteCounters.tenSecondRate(Map.of(), "getMissTps"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("getMissTps");
    }
}
