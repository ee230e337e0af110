package dev.orderflow.sms;

import java.net.URL;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.fuzz.ApiDocuments;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** {@code docs/api/sms-service.yaml} is the OpenAPI document this service serves (see {@link ApiDocuments}). */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ApiDocumentTest {

    @TestHTTPResource("/q/openapi")
    URL openApi;

    @Test
    void docsApiHoldsTheServedDocument() {
        ApiDocuments.assertCurrent(openApi, "sms-service");
    }
}
