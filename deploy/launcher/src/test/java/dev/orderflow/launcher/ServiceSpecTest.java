package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;

import org.junit.jupiter.api.Test;

class ServiceSpecTest {

    private static ServiceSpec spec(String name) {
        return ServiceSpec.SUITE.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void statusServiceRunsWithASmallerHeapThanTheOthers() {
        assertThat(ServiceSpec.SUITE).extracting(ServiceSpec::name, ServiceSpec::maxHeap).containsExactly(
                tuple("order-service", "64m"),
                tuple("inventory-service", "64m"),
                tuple("sms-service", "64m"),
                tuple("points-service", "64m"),
                tuple("status-service", "48m"));
    }

    @Test
    void theServicesHeapComesFirstSoThatAnXmxGivenLaterWins() {
        assertThat(spec("status-service").jvmOptions(List.of("-XX:+UseSerialGC", "-Xmx128m")))
                .containsExactly("-Xmx48m", "-XX:+UseSerialGC", "-Xmx128m");
        assertThat(spec("order-service").jvmOptions(List.of())).containsExactly("-Xmx64m");
    }

    @Test
    void movedToAnotherPortAndDatabaseItKeepsItsHeap() {
        ServiceSpec moved = spec("status-service").withPorts(18084, 19084).withDatabasePrefix("orderflow_e2e_");
        assertThat(moved).isEqualTo(new ServiceSpec("status-service", "status-service", 18084, 19084,
                "orderflow_e2e_status", "48m"));
        assertThat(moved.readinessUrl()).hasToString("http://127.0.0.1:19084/q/health/ready");
    }
}
