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
        assertThat(options.jit()).as("C1 only by default, as the local launcher runs the services").isEqualTo("c1");
        assertThat(options.warmupOrders()).isZero();
        assertThat(options.skuNames()).hasSize(50).startsWith("LOAD-SKU-01").endsWith("LOAD-SKU-50");
    }

    @Test
    void servicesAndBrokerRunC1OnlyUnlessC2IsAsked() {
        assertThat(LoadOptions.parse().serviceJvmOptions())
                .containsExactly("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:MetaspaceSize=64m", "-Xms16m",
                        "-XX:MinHeapFreeRatio=20", "-XX:MaxHeapFreeRatio=40", "-XX:TrimNativeHeapInterval=5000");
        assertThat(LoadOptions.parse("--jit", "c2", "--jvm-options", "-Xmx128m -Dx=y broker:-Xmx192m")
                .serviceJvmOptions())
                .containsExactly("-XX:+UseSerialGC", "-XX:MetaspaceSize=64m", "-Xms16m", "-XX:MinHeapFreeRatio=20",
                        "-XX:MaxHeapFreeRatio=40", "-XX:TrimNativeHeapInterval=5000", "broker:-XX:TieredStopAtLevel=4",
                        "-Xmx128m", "-Dx=y", "broker:-Xmx192m");
    }

    @Test
    void profilesNamedProcessesOrAll() {
        assertThat(LoadOptions.parse("--jfr", "status-service,broker").jfrProcesses())
                .containsExactly("status-service", "broker");
        assertThat(LoadOptions.parse("--jfr", "all").jfrProcesses()).hasSize(6).contains("order-service", "broker");
        assertThatThrownBy(() -> LoadOptions.parse("--jfr", "status")).hasMessageContaining("--jfr takes 'all'");
        assertThat(LoadOptions.parse("--async-profile", "order-service").asyncProfileProcesses())
                .containsExactly("order-service");
        assertThat(LoadOptions.parse("--async-profile", "all").asyncProfileProcesses()).hasSize(6);
        assertThat(LoadOptions.parse("--jfr", "all").asyncProfileProcesses()).isEmpty();
        assertThatThrownBy(() -> LoadOptions.parse("--async-profile", "order"))
                .hasMessageContaining("--async-profile takes 'all'");
    }

    @Test
    void refusesBadWarmupSkusAndJit() {
        assertThat(LoadOptions.parse("--warmup", "500", "--skus", "4", "--jit", "c2"))
                .extracting(LoadOptions::warmupOrders, LoadOptions::skus, LoadOptions::jit)
                .containsExactly(500, 4, "c2");
        assertThatThrownBy(() -> LoadOptions.parse("--skus", "2")).hasMessageContaining("at least 3");
        assertThatThrownBy(() -> LoadOptions.parse("--warmup", "-1")).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> LoadOptions.parse("--jit", "c3")).hasMessageContaining("c1 or c2");
        assertThatThrownBy(() -> LoadOptions.parse("--startup-alone", "yes")).hasMessageContaining("true or false");
        assertThat(LoadOptions.parse().perSecond()).isFalse();
        assertThat(LoadOptions.parse("--per-second", "true").perSecond()).isTrue();
        assertThatThrownBy(() -> LoadOptions.parse("--per-second", "1"))
                .hasMessageContaining("--per-second is true or false, was 1");
        assertThat(LoadOptions.parse("--jvm-options", " -Xss512k  -XX:ReservedCodeCacheSize=48m ").extraJvmOptions())
                .containsExactly("-Xss512k", "-XX:ReservedCodeCacheSize=48m");
        assertThat(LoadOptions.parse("--jvm-options", "inventory-service:-Da=1", "--jvm-options",
                "status-service:-Db=2 status-service:-Dc=3").extraJvmOptions())
                .as("given more than once, the options add up")
                .containsExactly("inventory-service:-Da=1", "status-service:-Db=2", "status-service:-Dc=3");
    }

    @Test
    void warmsUpAtTheRateOnlyInTheOpenLoop() {
        LoadOptions options = LoadOptions.parse("--rate", "210", "--duration", "90", "--warmup-seconds", "30");
        assertThat(options.warmupOrdersAtRate()).isEqualTo(6300);
        assertThat(options.plannedOrders()).as("the warm-up's orders are not the measured ones").isEqualTo(18900);
        assertThat(LoadOptions.parse("--rate", "210", "--duration", "90").warmupOrdersAtRate()).isZero();
        assertThatThrownBy(() -> LoadOptions.parse("--orders", "500", "--warmup-seconds", "30"))
                .hasMessageContaining("--warmup-seconds warms up at the open loop's rate");
        assertThatThrownBy(() -> LoadOptions.parse("--rate", "210", "--duration", "90", "--warmup-seconds", "-1"))
                .hasMessageContaining("--warmup-seconds must not be negative");
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
