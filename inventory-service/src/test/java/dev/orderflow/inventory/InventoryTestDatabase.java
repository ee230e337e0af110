package dev.orderflow.inventory;

import dev.orderflow.consumer.testing.DatabaseLinkResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * Every test of this module runs the application against the real MariaDB (database
 * orderflow_inventory_test) through a {@link dev.orderflow.consumer.testing.DatabaseLink}, which
 * the outage test cuts and restores; the in-process broker comes from Dev Services.
 */
@QuarkusTestResource(value = DatabaseLinkResource.class,
        initArgs = @ResourceArg(name = "database", value = "orderflow_inventory_test"))
public final class InventoryTestDatabase {

    private InventoryTestDatabase() {
    }
}
