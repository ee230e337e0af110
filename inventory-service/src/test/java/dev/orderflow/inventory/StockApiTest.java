package dev.orderflow.inventory;

import static dev.orderflow.inventory.Inventory.asInventoryManager;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.quarkus.test.junit.QuarkusTest;

/** The stock API over HTTP (REST Assured) against the real MariaDB. */
@QuarkusTest
class StockApiTest {

    @Test
    void putSetsTheStockAndGetReadsIt() {
        String sku = Inventory.newSku();

        asInventoryManager().contentType("application/json").body("{\"available\":100000}")
                .put("/stock/{sku}", sku).then()
                .statusCode(200)
                .contentType("application/json")
                .body(equalTo("{\"sku\":\"" + sku + "\",\"available\":100000}"));
        asInventoryManager().contentType("application/json").body("{\"available\":99998}")
                .put("/stock/{sku}", sku).then().statusCode(200).body("available", equalTo(99998));

        asInventoryManager().get("/stock/{sku}", sku).then()
                .statusCode(200)
                .body(equalTo("{\"sku\":\"" + sku + "\",\"available\":99998}"));
    }

    @Test
    void unknownSkuIsA404Problem() {
        asInventoryManager().get("/stock/{sku}", "SKU-NOPE-" + System.nanoTime()).then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body("type", containsString("stock-not-found"))
                .body("detail", containsString("SKU-NOPE-"));
    }

    /** Each row: body, the field the problem must name. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "{\"available\":-1}|available",
            "{\"available\":\"12\"}|available",
            "{\"available\":1.5}|available",
            "{\"available\":1000000000001}|available",
            "{}|available",
            "{\"available\":|body",
            "[1]|body",
    })
    void invalidBodyIsA400ProblemNamingTheFieldAndWritesNothing(String body, String field) {
        String sku = Inventory.newSku();

        asInventoryManager().contentType("application/json").body(body).put("/stock/{sku}", sku).then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("errors[0].field", equalTo(field))
                .body(not(containsString("Exception")));
        asInventoryManager().get("/stock/{sku}", sku).then().statusCode(404);
    }

    @Test
    void invalidSkuAndWrongContentTypeAreProblems() {
        asInventoryManager().contentType("application/json").body("{\"available\":1}")
                .put("/stock/{sku}", "bad sku").then()
                .statusCode(400).contentType("application/problem+json").body("errors[0].field", equalTo("sku"));
        asInventoryManager().get("/stock/{sku}", "x".repeat(65)).then()
                .statusCode(400).contentType("application/problem+json");
        asInventoryManager().contentType("text/plain").body("available=1")
                .put("/stock/{sku}", Inventory.newSku()).then()
                .statusCode(415).contentType("application/problem+json");
    }
}
