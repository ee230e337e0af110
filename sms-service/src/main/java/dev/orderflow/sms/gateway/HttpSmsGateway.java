package dev.orderflow.sms.gateway;

import java.net.URI;

import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * Sends texts to an HTTP SMS provider: {@code POST <url>} with a JSON body
 * {@code {"to": phone, "text": text, "reference": key}} and the header
 * {@code Idempotency-Key: <key>}, the key being the outbox row's business key on every attempt.
 * The call is {@link SmsProvider}'s (REST Client, timeout, circuit breaker; which answers are
 * transient and which are refusals is described there). Here the call timeout and an open circuit
 * become transient failures like the others: the outbox retries the text with the same key.
 */
public class HttpSmsGateway implements SmsGateway {

    private final URI url;
    private final SmsProvider provider;

    public HttpSmsGateway(URI url, SmsProvider provider) {
        this.url = url;
        this.provider = provider;
    }

    @Override
    public void send(SmsRequest request) throws SmsGatewayUnavailableException, SmsRejectedException {
        try {
            provider.send(request);
        } catch (TimeoutException e) {
            throw new SmsGatewayUnavailableException("no answer from " + url + " within the call timeout ("
                    + e.getMessage() + ")", e);
        } catch (CircuitBreakerOpenException e) {
            throw new SmsGatewayUnavailableException("not sent: the circuit breaker is open after repeated failures of "
                    + url + " (" + e.getMessage() + ")", e);
        }
    }
}
