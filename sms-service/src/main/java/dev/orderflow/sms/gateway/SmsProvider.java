package dev.orderflow.sms.gateway;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Timeout;

import dev.orderflow.sms.config.SmsServiceConfig;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.faulttolerance.api.CircuitBreakerName;

/**
 * One call to the SMS provider per text, through the REST Client ({@link SmsProviderApi}), with a
 * timeout and a circuit breaker (MicroProfile Fault Tolerance). They guard this bean's method, not
 * the interface: fault tolerance annotations apply to CDI beans, and the client is built, not
 * injected. Their settings are the standard keys {@code dev.orderflow.sms.gateway.SmsProvider/send/...},
 * documented with the gateway's in application.properties. {@link HttpSmsGateway} turns what they
 * throw into {@link SmsGatewayUnavailableException}.
 *
 * <p>Answers: 2xx = sent; 408, 429 and 5xx = transient (the provider failed or is overloaded); 3xx
 * = transient too (redirects are not followed: a moved endpoint is a configuration error, and
 * retrying lets the texts go out once the URL is fixed); any other 4xx = refused for good. A
 * connection failure or no answer within the read timeout is transient too: the provider may have
 * sent the text, which is why the key never changes.
 *
 * <p>Created on the first text, so a service with the logging gateway needs no URL.
 */
@ApplicationScoped
public class SmsProvider {

    /** The circuit breaker's name, for {@code CircuitBreakerMaintenance} (state, listeners, reset). */
    public static final String CIRCUIT_BREAKER = "sms-provider";

    private static final int MAX_BODY_IN_ERROR = 200;

    private final URI url;
    private final SmsProviderApi api;

    @Inject
    public SmsProvider(SmsServiceConfig config) {
        SmsServiceConfig.Gateway gateway = config.gateway();
        this.url = gateway.url().orElseThrow(() -> new IllegalStateException(SmsGatewayProducer.URL_REQUIRED));
        this.api = QuarkusRestClientBuilder.newBuilder()
                .baseUri(url)
                .connectTimeout(gateway.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(gateway.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .followRedirects(false)
                .disableDefaultMapper(true)
                .build(SmsProviderApi.class);
    }

    @PreDestroy
    void close() throws Exception {
        ((AutoCloseable) api).close();
    }

    /**
     * Sends one text; returns when the provider accepted it.
     *
     * <p>No {@code @Retry}: the outbox retries each text with back-off and a bounded number of
     * attempts (RetryPolicy), across restarts; a retry here would multiply the calls of one attempt
     * and could outlast the row's claim lease.
     *
     * @throws SmsGatewayUnavailableException the provider failed or could not be reached: retry
     * @throws SmsRejectedException           the provider refused the text: never retry
     */
    // Bounds the whole call, behind the transport timeouts: read-timeout bounds only a silence, not a trickle.
    @Timeout(10_000)
    // Fails fast, leaving the retries to the outbox, while the provider keeps failing; a refusal is no failure.
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 5_000, skipOn = SmsRejectedException.class)
    // Named so that its state can be read and watched (CircuitBreakerMaintenance).
    @CircuitBreakerName(CIRCUIT_BREAKER)
    public void send(SmsRequest request) throws SmsGatewayUnavailableException, SmsRejectedException {
        SmsProviderApi.Message message = new SmsProviderApi.Message(request.phone(), request.text(),
                request.idempotencyKey());
        int status;
        String body;
        try (Response response = api.send(request.idempotencyKey(), message)) {
            status = response.getStatus();
            if (status >= 200 && status < 300) {
                return;
            }
            body = response.hasEntity() ? response.readEntity(String.class) : null;
        } catch (ProcessingException e) {
            if (e.getCause() instanceof InterruptedException) {
                // The timeout above interrupted the wait; it clears the flag and reports the timeout.
                Thread.currentThread().interrupt();
            }
            throw new SmsGatewayUnavailableException("no answer from " + url + ": " + e.getMessage(), e);
        }
        String answer = "HTTP " + status + " from " + url + ": " + abbreviate(body);
        if (isRetryable(status)) {
            throw new SmsGatewayUnavailableException(answer);
        }
        throw new SmsRejectedException(answer);
    }

    static boolean isRetryable(int status) {
        return status >= 500 || status == 408 || status == 429 || (status >= 300 && status < 400);
    }

    private static String abbreviate(String body) {
        if (body == null || body.isBlank()) {
            return "(empty body)";
        }
        return body.length() <= MAX_BODY_IN_ERROR ? body : body.substring(0, MAX_BODY_IN_ERROR) + "...";
    }
}
