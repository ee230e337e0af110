package dev.orderflow.launcher;

import java.nio.file.Path;
import java.util.List;

/**
 * One service of the suite: its Maven module (relative to the repository root), HTTP port and
 * MariaDB database. A service is started when its module has a built fast-jar.
 */
public record ServiceSpec(String name, String module, int port, String database) {

    /** The suite. A new service is one line here (and one database, created at start). */
    public static final List<ServiceSpec> SUITE = List.of(
            new ServiceSpec("order-service", "order-service", 8080, "orderflow_order"),
            new ServiceSpec("inventory-service", "inventory-service", 8081, "orderflow_inventory"),
            new ServiceSpec("sms-service", "sms-service", 8082, "orderflow_sms"),
            new ServiceSpec("points-service", "points-service", 8083, "orderflow_points"),
            new ServiceSpec("status-service", "status-service", 8084, "orderflow_status"));

    /** {@code <module>/target/quarkus-app/quarkus-run.jar}, as the Quarkus Maven plugin builds it. */
    public Path runnerJar(Path root) {
        return root.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
    }

    public String url() {
        return "http://localhost:" + port;
    }
}
