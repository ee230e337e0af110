package dev.orderflow.points;

import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.fuzz.AccessMatrix;
import dev.orderflow.rest.fuzz.ApiCallers;
import io.quarkus.test.junit.QuarkusTest;

/** Who may read a balance, with real tokens: the customer itself, staff and services. */
@QuarkusTest
class PointsApiAccessTest {

    @Test
    void everyOperationAnswersEachKindOfCallerAsTheRulesSay() {
        String owner = "C-PTS-" + System.nanoTime();
        // Statuses in AccessMatrix.Who order: none, forged, owner, other customer, inventory-manager, viewer,
        // operator, approver, service.
        AccessMatrix matrix = new AccessMatrix(owner)
                .expect("GET", "/points/{customerId}", who -> "/points/" + owner, null, "401 401 200 403 403 200 200 200 200");
        matrix.verify();
        ApiCallers.asCustomer(owner).get("/points/{customerId}", owner).then().statusCode(200)
                .body("customerId", equalTo(owner)).body("balance", equalTo(0));
        ApiCallers.asCustomer(matrix.otherCustomer()).get("/points/{customerId}", owner).then().statusCode(403)
                .contentType("application/problem+json");
    }
}
