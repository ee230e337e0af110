package dev.orderflow.suite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SuiteUnderTestOptionsTest {

    @Test
    void anOptionNamingAServiceAppliesToThatServiceOnly() {
        assertThat(SuiteUnderTest.forService("inventory-service", "inventory-service:-Dthreads=2")).isEqualTo("-Dthreads=2");
        assertThat(SuiteUnderTest.forService("order-service", "inventory-service:-Dthreads=2")).isNull();
        assertThat(SuiteUnderTest.forService("order-service", "-Xss512k")).isEqualTo("-Xss512k");
        assertThat(SuiteUnderTest.forService("order-service", "-XX:SharedArchiveFile={app-dir}/app-cds.jsa"))
                .isEqualTo("-XX:SharedArchiveFile={app-dir}/app-cds.jsa");
    }

    @Test
    void anOptionNamingTheBrokerAppliesToTheBrokerOnly() {
        assertThat(SuiteUnderTest.forBroker("broker:-XX:TieredStopAtLevel=4")).isEqualTo("-XX:TieredStopAtLevel=4");
        assertThat(SuiteUnderTest.forService("order-service", "broker:-XX:TieredStopAtLevel=4")).isNull();
        assertThat(SuiteUnderTest.forBroker("-Xss512k")).isNull();
        assertThat(SuiteUnderTest.forBroker("inventory-service:-Dthreads=2")).isNull();
    }
}
