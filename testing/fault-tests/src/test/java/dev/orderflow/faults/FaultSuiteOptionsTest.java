package dev.orderflow.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FaultSuiteOptionsTest {

    @Test
    void anOptionNamingAServiceAppliesToThatServiceOnly() {
        assertThat(FaultSuite.forService("inventory-service", "inventory-service:-Dthreads=2")).isEqualTo("-Dthreads=2");
        assertThat(FaultSuite.forService("order-service", "inventory-service:-Dthreads=2")).isNull();
        assertThat(FaultSuite.forService("order-service", "-Xss512k")).isEqualTo("-Xss512k");
        assertThat(FaultSuite.forService("order-service", "-XX:SharedArchiveFile={app-dir}/app-cds.jsa"))
                .isEqualTo("-XX:SharedArchiveFile={app-dir}/app-cds.jsa");
    }

    @Test
    void anOptionNamingTheBrokerAppliesToTheBrokerOnly() {
        assertThat(FaultSuite.forBroker("broker:-XX:TieredStopAtLevel=4")).isEqualTo("-XX:TieredStopAtLevel=4");
        assertThat(FaultSuite.forService("order-service", "broker:-XX:TieredStopAtLevel=4")).isNull();
        assertThat(FaultSuite.forBroker("-Xss512k")).isNull();
        assertThat(FaultSuite.forBroker("inventory-service:-Dthreads=2")).isNull();
    }
}
