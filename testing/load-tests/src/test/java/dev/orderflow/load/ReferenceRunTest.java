package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class ReferenceRunTest {

    @Test
    void takesLoadRunsClosedLoopOptionsWithItsOwnLabelAndResultsFile() {
        LoadOptions options = ReferenceRun.parse("--orders", "300", "--clients", "8", "--warmup", "100", "--skus", "50");
        assertThat(options.plannedOrders()).isEqualTo(300);
        assertThat(options.clients()).isEqualTo(8);
        assertThat(options.warmupOrders()).isEqualTo(100);
        assertThat(options.skuNames()).hasSize(50).startsWith("LOAD-SKU-01");
        assertThat(options.label()).isEqualTo("spring-boot-reference n=300 c=8");
        assertThat(options.results()).isEqualTo(Path.of("testing/load-tests/target/reference-results.csv"));
        assertThat(options.completionTimeout()).isEqualTo(Duration.ofSeconds(300));
    }

    @Test
    void keepsAGivenLabelAndResultsFile() {
        LoadOptions options = ReferenceRun.parse("--label", "ref today", "--results", "/tmp/r.csv");
        assertThat(options.label()).isEqualTo("ref today");
        assertThat(options.results()).isEqualTo(Path.of("/tmp/r.csv"));
        assertThat(options.plannedOrders()).isEqualTo(500);
    }

    @Test
    void refusesLoadRunsOtherOptions() {
        assertThatThrownBy(() -> ReferenceRun.parse("--rate", "40", "--duration", "60"))
                .hasMessageContaining("Unknown option --rate").hasMessageContaining("usage: ReferenceRun");
        assertThatThrownBy(() -> ReferenceRun.parse("--jit", "c2")).hasMessageContaining("Unknown option --jit");
        assertThatThrownBy(() -> ReferenceRun.parse("--orders", "0")).hasMessageContaining("--orders must be positive");
    }

    @Test
    void theReferencesTopicHasRocketMQsDefaultQueueCountUnlessToldOtherwise() {
        assertThat(ReferenceRun.queues(null)).isEqualTo(4);
        assertThat(ReferenceRun.queues(" ")).isEqualTo(4);
        assertThat(ReferenceRun.queues("2")).isEqualTo(2);
        assertThatThrownBy(() -> ReferenceRun.queues("0")).hasMessage("orderflow.reference.queues must be 1 to 64, was 0");
        assertThatThrownBy(() -> ReferenceRun.queues("two"))
                .hasMessage("orderflow.reference.queues must be a whole number of queues, was 'two'");
    }

    @Test
    void readsSpringBootsStartedLine() {
        String log = "2026-11-30T21:10:01.123Z  INFO 4242 --- [orderflow-reference] [           main] "
                + "d.o.reference.ReferenceApplication       : Started ReferenceApplication in 7.412 seconds "
                + "(process running for 8.306)\n";
        assertThat(ReferenceRun.startedIn(log)).isEqualTo(7.412);
        assertThat(ReferenceRun.startedIn("Starting ReferenceApplication using Java 17\n")).isNaN();
    }

    @Test
    void csvHeaderNamesEachJvm() {
        assertThat(ReferenceRun.CSV_HEADER).startsWith("label,clients,accepted,completed,failed,throughput,")
                .contains("reconciliation,commits_per_order,broker_writes_per_order,order_rss_mb,order_cpu_s,order_ready_s").endsWith("broker_rss_mb,broker_cpu_s");
    }
}
