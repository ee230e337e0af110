package dev.orderflow.launcher;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One service of the suite: its Maven module (relative to the repository root), HTTP port, MariaDB
 * database and maximum heap. A service is started when its module has a built fast-jar.
 *
 * @param managementPort the port of the service's management interface: health, metrics and the
 *                       OpenAPI document are served there only, never on {@code port}
 * @param maxHeap the service's {@code -Xmx} value, e.g. {@code 64m}: measured per service at steady
 *                load. Launchers start it with {@link #jvmOptions(List)}: {@code -Xmx<maxHeap>}
 *                before any other JVM option, so an {@code -Xmx} given by the user still wins.
 */
public record ServiceSpec(String name, String module, int port, int managementPort, String database,
        String maxHeap) {

    /** The heap of a service unless its line below says otherwise. */
    public static final String DEFAULT_MAX_HEAP = "64m";

    /**
     * The suite. A new service is one line here (and one database, created at start). status-service
     * runs with 48 MB: a full 64 MB heap makes up most of its 200 MB RSS, and its live set after a
     * full collection is 16-18 MB at 150 orders/s with its pull thresholds.
     */
    public static final List<ServiceSpec> SUITE = List.of(
            new ServiceSpec("order-service", "order-service", 8080, 9080, "orderflow_order", DEFAULT_MAX_HEAP),
            new ServiceSpec("inventory-service", "inventory-service", 8081, 9081, "orderflow_inventory", DEFAULT_MAX_HEAP),
            new ServiceSpec("sms-service", "sms-service", 8082, 9082, "orderflow_sms", DEFAULT_MAX_HEAP),
            new ServiceSpec("points-service", "points-service", 8083, 9083, "orderflow_points", DEFAULT_MAX_HEAP),
            new ServiceSpec("status-service", "status-service", 8084, 9084, "orderflow_status", "48m"));

    /** {@code <module>/target/quarkus-app/quarkus-run.jar}, as the Quarkus Maven plugin builds it. */
    public Path runnerJar(Path root) {
        return root.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
    }

    public String url() {
        return "http://localhost:" + port;
    }

    /** Readiness on the management interface: 200 once the database and every channel are up. */
    public URI readinessUrl() {
        return URI.create("http://127.0.0.1:" + managementPort + "/q/health/ready");
    }

    /** This service's JVM options: {@code -Xmx<maxHeap>}, then {@code options} (an -Xmx among them wins). */
    public List<String> jvmOptions(List<String> options) {
        List<String> all = new ArrayList<>(options.size() + 1);
        all.add("-Xmx" + maxHeap);
        all.addAll(options);
        return all;
    }

    /** The same service on other ports. */
    public ServiceSpec withPorts(int otherPort, int otherManagementPort) {
        return new ServiceSpec(name, module, otherPort, otherManagementPort, database, maxHeap);
    }

    /** The same service with its database renamed from {@code orderflow_<x>} to {@code <prefix><x>}. */
    public ServiceSpec withDatabasePrefix(String prefix) {
        return new ServiceSpec(name, module, port, managementPort, database.replaceFirst("^orderflow_", prefix), maxHeap);
    }
}
