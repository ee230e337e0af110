package dev.orderflow.inventory;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.PROBLEM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.rest.fuzz.ApiCallers;
import dev.orderflow.rest.fuzz.FuzzCase;
import dev.orderflow.rest.fuzz.FuzzCorpus;
import dev.orderflow.rest.fuzz.FuzzRun;
import dev.orderflow.rest.fuzz.RawHttp;
import dev.orderflow.rest.fuzz.RawRequest;
import dev.orderflow.rest.fuzz.SlowClients;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * Hostile clients against the stock API (the rest-fuzz corpus, seeded): each bad input gets a 4xx
 * problem body without a stack trace or class names, no stock row is written, and the service
 * still answers (also while slow clients hold connections with unfinished bodies). Real MariaDB
 * (orderflow_inventory_test) and the in-process RocketMQ broker (Dev Services).
 */
@QuarkusTest
class StockApiFuzzTest {

    private static final String VALID_STOCK = "{\"available\":100}";
    private static final FuzzCorpus.JsonBodySpec STOCK_BODY = new FuzzCorpus.JsonBodySpec(VALID_STOCK, Set.of(),
            false, 0, 136 * 1024);

    @Test
    void hostileInputsAreRejectedWithProblemsAndNothingIsWritten() {
        String sku = "FUZZ-" + Inventory.newSku();
        String target = "/stock/" + sku;
        FuzzCorpus corpus = new FuzzCorpus(FuzzCorpus.DEFAULT_SEED);
        List<FuzzCase> cases = new ArrayList<>();
        cases.addAll(corpus.jsonBody("PUT /stock/{sku}", "PUT", target, STOCK_BODY, 200));
        cases.addAll(corpus.contentTypes("PUT /stock/{sku}", "PUT", target, VALID_STOCK));
        cases.addAll(corpus.headerValues("PUT /stock/{sku}", "PUT", target, VALID_STOCK, "Authorization",
                FuzzCorpus.hostileAuthorizations(), PROBLEM));
        cases.addAll(corpus.pathSegment("PUT /stock/{sku}", "PUT", "/stock/{}"));
        cases.addAll(corpus.wrongMethods("PUT /stock/{sku}", target, Set.of("GET", "PUT")));
        cases.addAll(corpus.malformedHttp("PUT /stock/{sku}", "PUT", target, VALID_STOCK));
        cases.addAll(corpus.pathSegment("GET /stock/{sku}", "GET", "/stock/{}"));
        long stockRows = CommittedState.number("select count(*) from stock");

        FuzzRun run = new FuzzRun(new RawHttp(RestAssured.port, Duration.ofSeconds(10)).withAuthorization(ApiCallers.bearer(ApiCallers.TOKENS.user("ivan", "inventory-manager")))).send(cases);

        run.printAndVerify();
        assertThat(run.inputs()).isEqualTo(cases.size());
        assertThat(run.tallies().get("PUT /stock/{sku}").inputs()).isGreaterThanOrEqualTo(200);
        assertThat(CommittedState.number("select count(*) from stock")).isEqualTo(stockRows);
        given().get(target).then().statusCode(404);
        given().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
    }

    /**
     * Half bodies then silence on more connections than there are worker threads (250), and
     * trickled headers: normal requests are still answered promptly.
     */
    @Test
    void slowAndPartialBodiesDoNotStopTheService() throws Exception {
        String sku = "FUZZ-" + Inventory.newSku();
        RawRequest put = RawRequest.of("PUT", "/stock/" + sku,
                List.of(RawRequest.Header.of("Content-Type", "application/json")), "{\"available\":" + "1".repeat(12)
                        + "}");
        RawHttp http = new RawHttp(RestAssured.port, Duration.ofSeconds(10)).withAuthorization(ApiCallers.bearer(ApiCallers.TOKENS.user("ivan", "inventory-manager")));
        int inputs = 0;
        try (SlowClients slow = new SlowClients(http)) {
            for (int i = 0; i < 20; i++, inputs++) {
                slow.halfBodyThenClose(put);
            }
            for (int i = 0; i < 250; i++, inputs++) {
                slow.halfBodyThenStall(put);
            }
            List<Socket> trickling = slow.trickle(put, 20, Duration.ofMillis(100), Duration.ofSeconds(2));
            inputs += trickling.size();

            SlowClients.assertAnswersPromptly(http, RawRequest.get("/stock/" + sku), 404, 20, Duration.ofSeconds(5));
        }
        System.out.println("FUZZ endpoint=PUT /stock/{sku} (slow clients) inputs=" + inputs);
        assertThat(inputs).isEqualTo(290);
        given().get("/stock/" + sku).then().statusCode(404);
        given().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
    }
}
