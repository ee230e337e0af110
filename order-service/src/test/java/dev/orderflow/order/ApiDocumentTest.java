package dev.orderflow.order;

import java.net.URL;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.fuzz.ApiDocuments;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** {@code docs/api/order-service.yaml} is the OpenAPI document this service serves (see {@link ApiDocuments}). */
@QuarkusTest
class ApiDocumentTest {

    @TestHTTPResource("/q/openapi")
    URL openApi;

    @Test
    void docsApiHoldsTheServedDocument() {
        ApiDocuments.assertCurrent(openApi, "order-service");
    }
}
