package dev.orderflow.sms.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Sends texts to an HTTP SMS provider: {@code POST <url>} with a JSON body
 * {@code {"to": phone, "text": text, "reference": key}} and the header
 * {@code Idempotency-Key: <key>}, the key being the outbox row's business key on every attempt.
 *
 * <p>Answers: 2xx = sent; 408, 429 and 5xx = retry (the provider failed or is overloaded);
 * 3xx = retry too (redirects are not followed: a moved endpoint is a configuration error, and
 * retrying lets the texts go out once the URL is fixed); any other 4xx = refused for good. A connection failure or no answer within the read timeout
 * is a retry too: the provider may have sent the text, which is why the key never changes.
 */
public class HttpSmsGateway implements SmsGateway {

    /** The header carrying the idempotency key. */
    public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

    private static final int MAX_BODY_IN_ERROR = 200;

    private final URI url;
    private final Duration readTimeout;
    private final ObjectMapper objectMapper;
    private final HttpClient client;

    public HttpSmsGateway(URI url, Duration connectTimeout, Duration readTimeout, ObjectMapper objectMapper) {
        this.url = url;
        this.readTimeout = readTimeout;
        this.objectMapper = objectMapper;
        // HTTP/1.1: a plain-http provider must not be offered an h2c upgrade it may mishandle.
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public void send(SmsRequest request) throws SmsGatewayUnavailableException, SmsRejectedException {
        HttpRequest httpRequest = HttpRequest.newBuilder(url)
                .timeout(readTimeout)
                .header("Content-Type", "application/json")
                .header(IDEMPOTENCY_KEY_HEADER, request.idempotencyKey())
                .POST(HttpRequest.BodyPublishers.ofString(bodyOf(request)))
                .build();
        HttpResponse<String> response;
        try {
            response = client.send(httpRequest, HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new SmsGatewayUnavailableException("no answer from " + url + " within " + readTimeout.toMillis()
                    + " ms (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new SmsGatewayUnavailableException("cannot reach " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SmsGatewayUnavailableException("interrupted while sending to " + url, e);
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return;
        }
        String answer = "HTTP " + status + " from " + url + ": " + abbreviate(response.body());
        if (isRetryable(status)) {
            throw new SmsGatewayUnavailableException(answer);
        }
        throw new SmsRejectedException(answer);
    }

    static boolean isRetryable(int status) {
        return status >= 500 || status == 408 || status == 429 || (status >= 300 && status < 400);
    }

    private String bodyOf(SmsRequest request) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("to", request.phone());
        body.put("text", request.text());
        body.put("reference", request.idempotencyKey());
        try {
            return objectMapper.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A map of strings always serializes", e);
        }
    }

    private static String abbreviate(String body) {
        if (body == null || body.isBlank()) {
            return "(empty body)";
        }
        return body.length() <= MAX_BODY_IN_ERROR ? body : body.substring(0, MAX_BODY_IN_ERROR) + "...";
    }
}
