package dev.orderflow.inventory;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.fuzz.AccessMatrix;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Who may call the API, with real tokens: anyone authenticated reads stock, only an inventory manager
 * sets it; services and staff read the effect ledger, customers and inventory managers may not.
 */
@QuarkusTest
class StockApiAccessTest {

    @Test
    void everyOperationAnswersEachKindOfCallerAsTheRulesSay() {
        String sku = Inventory.newSku();
        Inventory.asInventoryManager().contentType("application/json").body("{\"available\":5}")
                .put("/stock/{sku}", sku).then().statusCode(200);
        // Statuses in AccessMatrix.Who order: none, forged, owner, other customer, inventory-manager, viewer,
        // operator, approver, service.
        new AccessMatrix("C-STOCK")
                .expect("GET", "/stock/{sku}", who -> "/stock/" + sku, null, "401 401 200 200 200 200 200 200 200")
                .expect("PUT", "/stock/{sku}", who -> "/stock/" + sku, "{\"available\":7}",
                        "401 401 403 403 200 403 403 403 403")
                .expect("POST", "/ledger/effects", "[\"O-ACCESS\"]", "401 401 403 403 403 200 200 200 200")
                .expect("GET", "/ledger/effects/order-ids?from=2002-01-01T00:00:00Z&to=2002-01-02T00:00:00Z&limit=10",
                        null, "401 401 403 403 403 200 200 200 200")
                .verify();
    }
}
