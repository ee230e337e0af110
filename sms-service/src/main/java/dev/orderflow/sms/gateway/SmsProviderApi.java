package dev.orderflow.sms.gateway;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The SMS provider's HTTP API, a Quarkus REST Client interface: {@code POST <sms-service.gateway.url>}
 * with the JSON body {@code {"to", "text", "reference"}} and the header {@code Idempotency-Key}.
 *
 * <p>Not {@code @RegisterRestClient}: {@link SmsProvider} builds it with {@code QuarkusRestClientBuilder}
 * from the service's own keys ({@code sms-service.gateway.url}, connect and read timeouts as
 * durations). A CDI-managed client would take them from {@code quarkus.rest-client.*}, timeouts in
 * milliseconds, a second set of keys for the same settings.
 */
public interface SmsProviderApi {

    /** The header carrying the idempotency key. */
    String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

    /**
     * Sends one text. Every answer comes back as a {@link Response}, errors included (the builder
     * turns the default exception mapper off), for {@link SmsProvider} to sort.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    Response send(@HeaderParam(IDEMPOTENCY_KEY_HEADER) String idempotencyKey, Message message);

    /**
     * The request body.
     *
     * @param to        the recipient's phone number
     * @param text      the message
     * @param reference the idempotency key again, for providers that deduplicate on a body field
     */
    record Message(String to, String text, String reference) {
    }
}
