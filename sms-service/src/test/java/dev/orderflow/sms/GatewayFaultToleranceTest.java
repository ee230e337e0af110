package dev.orderflow.sms;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.sms.SmsTestEvents.DELIVERY;
import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.event;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static dev.orderflow.sms.SmsTestEvents.sendCreateOfACompletedOrder;
import static io.smallrye.faulttolerance.api.CircuitBreakerState.CLOSED;
import static io.smallrye.faulttolerance.api.CircuitBreakerState.HALF_OPEN;
import static io.smallrye.faulttolerance.api.CircuitBreakerState.OPEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.sms.FakeSmsGateway.Answer;
import dev.orderflow.sms.FakeSmsGateway.Call;
import dev.orderflow.sms.SmsDatabase.OutboxRow;
import dev.orderflow.sms.gateway.SmsProvider;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;
import io.smallrye.faulttolerance.api.CircuitBreakerState;

/**
 * The fault tolerance of the calls to the SMS provider ({@code SmsProvider#send}), set through its
 * MicroProfile Fault Tolerance keys: a call timeout below the read timeout, so that only the call
 * timeout can end a stalled call, and the circuit breaker (off in %test). Real broker, real MariaDB,
 * the fake provider over HTTP; the breaker's own state changes are watched, each with the number of
 * calls the provider had received by then.
 */
@QuarkusTest
@TestProfile(GatewayFaultToleranceTest.FaultToleranceOn.class)
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class GatewayFaultToleranceTest {

    private static final String SETTINGS = "dev.orderflow.sms.gateway.SmsProvider/send/";

    /**
     * Calls end after 1 s, the answer awaited 5 s (the lease above the 6 s longest send); the circuit
     * opens once all of the last 4 calls failed (the one or two timeouts of a stalled text cannot open
     * it), for 2 s; attempts enough for a text to outlast the outages here.
     */
    public static class FaultToleranceOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(SETTINGS + "Timeout/value", "1000",
                    "sms-service.gateway.read-timeout", "PT5S",
                    "sms-service.dispatch.claim-lease", "PT10S",
                    SETTINGS + "CircuitBreaker/enabled", "true",
                    SETTINGS + "CircuitBreaker/requestVolumeThreshold", "4",
                    SETTINGS + "CircuitBreaker/failureRatio", "1.0",
                    SETTINGS + "CircuitBreaker/delay", "2000",
                    "sms-service.retry.max-attempts", "1000");
        }
    }

    /** A state the breaker entered, and how many calls the provider had received when it did. */
    record Transition(CircuitBreakerState state, int callsSoFar) {
    }

    @Inject
    CircuitBreakerMaintenance circuitBreakers;

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    /** An outage a failed test left behind must not fail the next. */
    @AfterEach
    void providerUp() {
        gateway.recover();
    }

    @Test
    void aProviderStallingPastTheCallTimeoutFailsTransientlyAndTheTextGoesOutOnceItRecovers() {
        // Every call stalls 2.5 s, within the 5 s read timeout: only the 1 s call timeout ends it.
        OutboxRow sent = sendThroughAnOutage(new Answer(503, false, 2500), "within the call timeout");

        assertThat(sent.attempts()).as("the timed-out attempt, then the outbox's retry").isGreaterThanOrEqualTo(2);
    }

    @Test
    void serverErrorsOpenTheCircuitNoCallReachesTheProviderWhileItIsOpenAndTextsGoOutOnceItCloses() {
        List<Transition> transitions = new CopyOnWriteArrayList<>();
        circuitBreakers.onStateChange(SmsProvider.CIRCUIT_BREAKER,
                state -> transitions.add(new Transition(state, gateway.callCount())));

        // The 500s open the circuit; the attempts while it is open fail without a call, retried like a 500.
        OutboxRow sent = sendThroughAnOutage(Answer.serverError(), "circuit breaker is open");

        assertThat(sent.attempts()).as("attempts that never reached the provider")
                .isGreaterThan(gateway.callsWithKey(sent.businessKey()).size());
        await().atMost(DELIVERY).alias("closed by the trial call that got the 200")
                .until(() -> !transitions.isEmpty() && transitions.get(transitions.size() - 1).state() == CLOSED);
        assertThat(transitions.get(0).state()).isEqualTo(OPEN);
        for (int i = 0; i + 1 < transitions.size(); i++) {
            Transition transition = transitions.get(i);
            if (transition.state() == OPEN) {
                assertThat(transitions.get(i + 1)).as("no call while open (transitions %s)", transitions)
                        .isEqualTo(new Transition(HALF_OPEN, transition.callsSoFar()));
            }
        }
        assertThat(circuitOpenings()).as("ft_circuitbreaker_opened_total on /q/metrics")
                .isEqualTo(transitions.stream().filter(transition -> transition.state() == OPEN).count());
        assertATextGoesOutOnItsFirstAttempt();
    }

    @Test
    void refusalsDoNotOpenTheCircuitAndAreNotRetried() {
        // A whole window of refusals: counted as failures, they would open the circuit.
        for (int i = 0; i < 4; i++) {
            String orderId = newOrderId();
            String key = orderId + ":create";
            gateway.script(key, Answer.badRequest());
            sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, newPhone()));

            OutboxRow refused = awaitStatus(key, "FAILED");
            assertThat(refused.attempts()).isEqualTo(1);
            assertThat(refused.lastError()).startsWith("refused: HTTP 400");
            assertThat(gateway.callsWithKey(key)).hasSize(1);
        }

        assertThat(circuitBreakers.currentState(SmsProvider.CIRCUIT_BREAKER)).isEqualTo(CLOSED);
        assertATextGoesOutOnItsFirstAttempt();
    }

    /**
     * Sends a text while every call to the provider gets {@code outage}, waits for an attempt to fail
     * with {@code error} in its message, lets the provider recover, and checks that the text then went
     * out once.
     *
     * @return the text's row, SENT
     */
    private OutboxRow sendThroughAnOutage(Answer outage, String error) {
        String orderId = newOrderId();
        String phone = newPhone();
        String key = orderId + ":create";
        gateway.failEveryCall(outage);
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));

        await().atMost(DELIVERY).alias("an attempt failed with " + error).until(() -> {
            String lastError = SmsDatabase.outboxRow(key).lastError();
            return lastError != null && lastError.contains(error);
        });
        gateway.recover();

        OutboxRow sent = awaitStatus(key, "SENT");
        assertThat(gateway.callsWithKey(key)).extracting(Call::answeredStatus).as("failed calls, then one 200")
                .endsWith(200).filteredOn(status -> status == 200).hasSize(1);
        assertThat(gateway.textsTo(phone)).hasSize(1);
        return sent;
    }

    /** How often the provider's circuit opened, as the Prometheus metrics tell. */
    private static long circuitOpenings() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher opened = Pattern.compile("(?m)^ft_circuitbreaker_opened_total\\{[^}]*method=\""
                + Pattern.quote(SmsProvider.class.getName() + ".send") + "\"[^}]*} ([0-9.]+)$").matcher(metrics);
        assertThat(opened.find()).as("the metric in %s", metrics).isTrue();
        return (long) Double.parseDouble(opened.group(1));
    }

    private void assertATextGoesOutOnItsFirstAttempt() {
        String orderId = newOrderId();
        String phone = newPhone();
        sendCreateOfACompletedOrder(event(OrderEventType.CREATE, orderId, phone));

        assertThat(awaitStatus(orderId + ":create", "SENT").attempts()).isEqualTo(1);
        assertThat(gateway.callsTo(phone)).hasSize(1);
        assertThat(gateway.textsTo(phone)).hasSize(1);
    }
}
