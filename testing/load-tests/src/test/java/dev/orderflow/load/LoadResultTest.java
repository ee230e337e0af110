package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LoadResultTest {

    private static final LoadResult RUN = new LoadResult("closed n=2000 c=16", 16, 0, 2000, 2000, 0, 100.0, 400, 700,
            900, 1200, 30, 120, 10.0, 8.0, 2000.0, 4000.0, 1.5, 0);

    @Test
    void fractionsOfTheCeilings() {
        assertThat(RUN.dbBoundOrdersPerSecond()).isEqualTo(200.0);     // 2000 commits/s / 10 per order
        assertThat(RUN.brokerBoundOrdersPerSecond()).isEqualTo(500.0); // 4000 sends/s / 8 per order
        assertThat(RUN.dbFraction()).isCloseTo(0.5, within(1e-9));
        assertThat(RUN.brokerFraction()).isCloseTo(0.2, within(1e-9));
        assertThat(RUN.report()).anySatisfy(line -> assertThat(line).contains("50.0 % of the DB bound",
                "20.0 % of the broker bound"));
    }

    @Test
    void csvRoundTrip() {
        assertThat(LoadResult.fromCsv(RUN.toCsv())).isEqualTo(RUN);
        assertThat(RUN.toCsv().split(",")).hasSameSizeAs(LoadResult.CSV_HEADER.split(","));
    }

    @Test
    void passesOnlyWhenAllCompletedAndReconciled() {
        assertThat(RUN.passed()).isTrue();
        assertThat(new LoadResult("x", 1, 0, 10, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0).passed()).isFalse();
        assertThat(new LoadResult("x", 1, 0, 10, 10, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2).passed()).isFalse();
    }
}
