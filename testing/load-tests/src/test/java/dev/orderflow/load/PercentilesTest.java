package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void nearestRankOfOneToHundred() {
        List<Long> values = new ArrayList<>();
        for (long v = 100; v >= 1; v--) {
            values.add(v);
        }
        Collections.shuffle(values);
        Percentiles percentiles = new Percentiles(values);
        assertThat(percentiles.at(50)).isEqualTo(50);
        assertThat(percentiles.at(90)).isEqualTo(90);
        assertThat(percentiles.at(99)).isEqualTo(99);
        assertThat(percentiles.at(100)).isEqualTo(100);
        assertThat(percentiles.max()).isEqualTo(100);
        assertThat(percentiles.count()).isEqualTo(100);
    }

    @Test
    void smallSetsRoundUpToTheNextValue() {
        Percentiles percentiles = new Percentiles(List.of(10L, 20L, 30L));
        assertThat(percentiles.at(50)).isEqualTo(20);
        assertThat(percentiles.at(99)).isEqualTo(30);
        assertThat(percentiles.at(1)).isEqualTo(10);
    }

    @Test
    void noValuesGiveZeroAndBadPercentsAreRefused() {
        assertThat(new Percentiles(List.of()).at(99)).isZero();
        assertThat(new Percentiles(List.of()).max()).isZero();
        assertThatThrownBy(() -> new Percentiles(List.of(1L)).at(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Percentiles(List.of(1L)).at(101)).isInstanceOf(IllegalArgumentException.class);
    }
}
