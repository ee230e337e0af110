package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class LoadOptionsTest {

    @Test
    void closedLoopByDefault() {
        LoadOptions options = LoadOptions.parse("--orders", "5000", "--clients", "32");
        assertThat(options.openLoop()).isFalse();
        assertThat(options.plannedOrders()).isEqualTo(5000);
        assertThat(options.clients()).isEqualTo(32);
        assertThat(options.label()).isEqualTo("closed n=5000 c=32");
    }

    @Test
    void openLoopPlansRateTimesDuration() {
        LoadOptions options = LoadOptions.parse("--rate", "150", "--duration", "20", "--clients", "64");
        assertThat(options.openLoop()).isTrue();
        assertThat(options.plannedOrders()).isEqualTo(3000);
        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void refusesHalfAnOpenLoopAndUnknownOptions() {
        assertThatThrownBy(() -> LoadOptions.parse("--rate", "100")).hasMessageContaining("--rate and --duration");
        assertThatThrownBy(() -> LoadOptions.parse("--orderz", "1")).hasMessageContaining("Unknown option --orderz");
        assertThatThrownBy(() -> LoadOptions.parse("--clients", "0")).hasMessageContaining("must be positive");
        assertThatThrownBy(() -> LoadOptions.parse("--orders")).hasMessageContaining("No value for --orders");
    }
}
