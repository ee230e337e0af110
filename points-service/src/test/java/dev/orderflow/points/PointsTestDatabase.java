package dev.orderflow.points;

import dev.orderflow.consumer.testing.DatabaseLinkResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * Every test of this module runs the application against the real MariaDB (database
 * orderflow_points_test) through a {@link dev.orderflow.consumer.testing.DatabaseLink}; the
 * in-process broker comes from Dev Services.
 */
@QuarkusTestResource(value = DatabaseLinkResource.class,
        initArgs = @ResourceArg(name = "database", value = "orderflow_points_test"))
public final class PointsTestDatabase {

    private PointsTestDatabase() {
    }
}
