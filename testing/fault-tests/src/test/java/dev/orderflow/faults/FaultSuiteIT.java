package dev.orderflow.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fault-injection suite in its short profile (or the one named by
 * {@code -Dfault.profile}): the real RocketMQ broker in a child process, the real MariaDB with
 * fresh {@code orderflow_fault_*} databases, the five services as child processes; every fault of
 * the cycle once, with some orders failing on purpose (a line never in stock) and compensated; the
 * reconciliation verdict must be clean and no process may outlive the run.
 */
@Tag("system") // starts the broker and the five services: mvn verify -Psystem
class FaultSuiteIT {

    /** Bounded by {@code junit.jupiter.execution.timeout.testable.method.default} (pom: {@code fault.timeout}). */
    @Test
    void everyOrderHasExactlyOneEffectPerConsumerUnderEveryFault() {
        Path root = Path.of(System.getProperty("orderflow.fault.root")).toAbsolutePath().normalize();
        Profile profile = Profile.named(System.getProperty("orderflow.fault.profile", "short"));

        FaultRun.Result result = FaultRun.run(profile, root, FaultRun.runDirOf(root), System.out);

        assertThat(result.faults()).as("every fault of the cycle was injected").containsOnlyKeys(
                "kill9-consumer", "duplicate-delivery", "poison-message", "kill9-order-service-half-message",
                "broker-restart", "slow-consumer", "database-outage", "two-instances-kill-in-rebalance");
        assertThat(result.verdict().ordersAccepted()).as("orders accepted").isGreaterThanOrEqualTo(100);
        assertThat(result.streamRanThroughout()).as("orders still placed when the last fault ended").isTrue();
        assertThat(result.unexpectedExits()).as("services that died without a fault").isEmpty();
        assertThat(result.verdict().lost()).as(result.report()).isZero();
        assertThat(result.verdict().duplicated()).as(result.report()).isZero();
        assertThat(result.verdict().phantom()).as(result.report()).isZero();
        assertThat(result.verdict().wrongState()).as(result.report()).isZero();
        assertThat(result.verdict().pending()).as(result.report()).isZero();
        assertThat(result.verdict().wrongDlq()).as(result.report()).isZero();
        assertThat(result.verdict().wrongCompensation()).as(result.report()).isZero();
        assertThat(result.verdict().ordersFailed()).as("orders that failed on purpose, compensated").isPositive();
        List<ProcessHandle> left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        assertThat(left).as("processes left behind by the fault run").isEmpty();
    }
}
