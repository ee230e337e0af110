package dev.orderflow.points;

import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.fuzz.AccessMatrix;
import dev.orderflow.rest.fuzz.ApiCallers;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Who may call the API, with real tokens: a balance the customer itself, staff and services; the
 * effect ledger staff and services only.
 */
@QuarkusTest
class PointsApiAccessTest {

    @Test
    void everyOperationAnswersEachKindOfCallerAsTheRulesSay() {
        String owner = "C-PTS-" + System.nanoTime();
        // Statuses in AccessMatrix.Who order: none, forged, owner, other customer, inventory-manager, viewer,
        // operator, approver, service.
        AccessMatrix matrix = new AccessMatrix(owner)
                .expect("GET", "/points/{customerId}", who -> "/points/" + owner, null, "401 401 200 403 403 200 200 200 200")
                .expect("POST", "/ledger/effects", "[\"O-ACCESS\"]", "401 401 403 403 403 200 200 200 200")
                .expect("GET", "/ledger/effects/order-ids?from=2002-01-01T00:00:00Z&to=2002-01-02T00:00:00Z&limit=10",
                        null, "401 401 403 403 403 200 200 200 200");
        matrix.verify();
        ApiCallers.asCustomer(owner).get("/points/{customerId}", owner).then().statusCode(200)
                .body("customerId", equalTo(owner)).body("balance", equalTo(0));
        ApiCallers.asCustomer(matrix.otherCustomer()).get("/points/{customerId}", owner).then().statusCode(403)
                .contentType("application/problem+json");
    }
}
