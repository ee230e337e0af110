package dev.orderflow.status;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.MAY_ACCEPT;
import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.PROBLEM;
import static dev.orderflow.rest.fuzz.FuzzCorpus.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.fuzz.ApiCallers;
import dev.orderflow.rest.fuzz.FuzzCase;
import dev.orderflow.rest.fuzz.FuzzCorpus;
import dev.orderflow.rest.fuzz.FuzzRun;
import dev.orderflow.rest.fuzz.HostileValues;
import dev.orderflow.rest.fuzz.RawHttp;
import dev.orderflow.rest.fuzz.RawRequest;
import dev.orderflow.rest.fuzz.SlowClients;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * Hostile clients against every public endpoint of the status API (the rest-fuzz corpus, seeded):
 * each bad input gets a 4xx problem body without a stack trace or class names, no status row is
 * written, and the service still answers (also while slow clients hold connections). Real MariaDB
 * (orderflow_status_test) and the in-process RocketMQ broker (Dev Services).
 */
@QuarkusTest
class StatusApiFuzzTest {

    /** Not a valid ISO-8601 duration (java.time.Duration), or negative; never a wait. */
    private static final List<String> BAD_WAITS = List.of("abc", "-PT1S", "PT-5S", "10", "10s", "PT10", "P", "PTS",
            "PT1S PT2S", "P1Y", "P1M", "PT99999999999999999999S", "pt", "1e3", "null", "[]", "PT1,5,5S");

    @Test
    void hostileInputsAreRejectedWithProblemsAndNothingIsWritten() {
        FuzzCorpus corpus = new FuzzCorpus(FuzzCorpus.DEFAULT_SEED);
        List<FuzzCase> cases = new ArrayList<>();
        cases.addAll(corpus.pathSegment("GET /orders/{id}/status", "GET", "/orders/{}/status"));
        cases.addAll(corpus.headerValues("GET /orders/{id}/status", "GET", "/orders/FUZZ-NO-SUCH-ORDER/status", null,
                "Authorization", FuzzCorpus.hostileAuthorizations(), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /orders/{id}/status", "/orders/FUZZ-NO-SUCH-ORDER/status", "", "wait",
                concat(BAD_WAITS, HostileValues.SQL_AND_SCRIPT, HostileValues.UNICODE), PROBLEM));
        cases.addAll(corpus.wrongMethods("GET /orders/{id}/status", "/orders/FUZZ-NO-SUCH-ORDER/status", Set.of("GET")));
        cases.addAll(corpus.malformedHttp("GET /orders/{id}/status", "GET", "/orders/FUZZ-NO-SUCH-ORDER/status", "{}"));
        cases.addAll(corpus.queryParameter("GET /orders/status", "/orders/status", "", "state",
                concat(List.of("DONE", "pending!", "PENDING,COMPLETED", "0", "x".repeat(3_000)),
                        HostileValues.SQL_AND_SCRIPT, HostileValues.UNICODE), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /orders/status", "/orders/status", "state=PENDING", "page",
                FuzzCorpus.badIntegers(0, 1_000), PROBLEM));
        cases.addAll(corpus.queryParameter("GET /orders/status", "/orders/status", "state=PENDING", "size",
                FuzzCorpus.badIntegers(1, 100), PROBLEM));
        cases.addAll(corpus.wrongMethods("GET /orders/status", "/orders/status?state=PENDING", Set.of("GET")));
        cases.addAll(corpus.malformedHttp("GET /orders/status", "GET", "/orders/status?state=PENDING", "{}"));
        cases.addAll(corpus.wrongMethods("GET /status/summary", "/status/summary", Set.of("GET")));
        cases.addAll(corpus.malformedHttp("GET /status/summary", "GET", "/status/summary", "{}"));
        long statuses = StatusDatabase.count("select count(*) from order_message_consume_status");
        long outcomes = StatusDatabase.count("select count(*) from order_consumer_outcome");

        FuzzRun run = new FuzzRun(new RawHttp(RestAssured.port, Duration.ofSeconds(10)).withAuthorization(ApiCallers.serviceAuthorization())).send(cases);

        run.printAndVerify();
        assertThat(run.inputs()).isEqualTo(cases.size());
        assertThat(run.tallies().get("GET /orders/{id}/status").inputs()).isGreaterThanOrEqualTo(100);
        assertThat(run.tallies().get("GET /orders/status").inputs()).isGreaterThanOrEqualTo(100);
        assertThat(StatusDatabase.count("select count(*) from order_message_consume_status")).isEqualTo(statuses);
        assertThat(StatusDatabase.count("select count(*) from order_consumer_outcome")).isEqualTo(outcomes);
        assertThat(StatusDatabase.count("select count(*) from order_message_consume_status where order_id like 'FUZZ%'"))
                .isZero();
        assertStillUp();
    }

    /** Junk query parameters the endpoints do not know are ignored: a normal answer, never a 5xx. */
    @Test
    void unknownQueryParametersAreIgnored() {
        FuzzCorpus corpus = new FuzzCorpus(FuzzCorpus.DEFAULT_SEED);
        List<String> junk = concat(HostileValues.SQL_AND_SCRIPT, HostileValues.UNICODE);
        List<FuzzCase> cases = new ArrayList<>();
        cases.addAll(corpus.queryParameter("GET /status/summary", "/status/summary", "", "q", junk, MAY_ACCEPT));
        cases.addAll(corpus.queryParameter("GET /orders/status", "/orders/status", "state=PENDING", "q", junk,
                MAY_ACCEPT));

        FuzzRun run = new FuzzRun(new RawHttp(RestAssured.port, Duration.ofSeconds(10)).withAuthorization(ApiCallers.serviceAuthorization()))
                .send(cases, (fuzzCase, response) -> response.status() == 200 ? List.of()
                        : List.of("expected 200, was " + response.status()));

        run.printAndVerify();
        assertThat(run.tallies().get("GET /status/summary").accepted()).isEqualTo(junk.size());
    }

    /**
     * Connections that never finish a request (half a body then silence, headers trickled a byte
     * at a time) while normal requests keep being answered promptly.
     */
    @Test
    void slowClientsDoNotStopTheService() throws Exception {
        RawHttp http = new RawHttp(RestAssured.port, Duration.ofSeconds(10)).withAuthorization(ApiCallers.serviceAuthorization());
        RawRequest withBody = RawRequest.of("POST", "/status/summary",
                List.of(RawRequest.Header.of("Content-Type", "application/json")), "{\"x\":\"" + "y".repeat(200) + "\"}");
        int inputs = 0;
        try (SlowClients slow = new SlowClients(http)) {
            for (int i = 0; i < 250; i++, inputs++) {
                slow.halfBodyThenStall(withBody);
            }
            List<Socket> trickling = slow.trickle(RawRequest.get("/orders/status?state=PENDING"), 50,
                    Duration.ofMillis(100), Duration.ofSeconds(2));
            inputs += trickling.size();

            SlowClients.assertAnswersPromptly(http, RawRequest.get("/orders/FUZZ-NO-SUCH-ORDER/status"), 404, 20, Duration.ofSeconds(5));
            assertStillUp();
        }
        System.out.println("FUZZ endpoint=status-service (slow clients) inputs=" + inputs);
        assertThat(inputs).isEqualTo(300);
    }

    private static void assertStillUp() {
        given().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
    }
}
