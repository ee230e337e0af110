package dev.orderflow.tokens;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An OAuth 2.0 token endpoint for the client-credentials grant, on loopback, where no OpenID
 * Connect issuer runs (the local suite, tests): one client, authenticated by HTTP Basic
 * ({@code client_secret_basic}, what {@code quarkus-oidc-client} sends by default) or by form
 * fields ({@code client_secret_post}), gets a {@link TokenIssuer#service(String) service token}
 * named after it. Anything else is the RFC 6749 error answer: 400 (another grant, both ways of
 * authenticating, a body over 8 KiB), 401 (the client or its secret wrong, a malformed Basic
 * header), 405 for another method. A production issuer
 * (e.g. a Keycloak realm with a confidential client) serves the same grant instead.
 */
public final class TokenEndpoint implements AutoCloseable {

    /** Where the endpoint answers: {@code http://127.0.0.1:<port>} + this. */
    public static final String PATH = "/token";
    private static final Duration LIFETIME = Duration.ofMinutes(10);
    private static final int MAX_BODY = 8192;
    /** A Basic header that is no base64 of {@code id:secret}: never a valid client. */
    private static final String[] BAD_BASIC = new String[2];

    private final HttpServer server;
    private final ExecutorService executor;
    private final TokenIssuer issuer;
    private final String clientId;
    private final String clientSecret;

    private TokenEndpoint(HttpServer server, ExecutorService executor, TokenIssuer issuer, String clientId,
            String clientSecret) {
        this.server = server;
        this.executor = executor;
        this.issuer = issuer;
        this.clientId = clientId;
        this.clientSecret = clientSecret;
    }

    /** Starts the endpoint on {@code port} of 127.0.0.1 (0: any free port) for one client. */
    public static TokenEndpoint start(TokenIssuer issuer, int port, String clientId, String clientSecret) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
            ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
                Thread thread = new Thread(r, "orderflow-token-endpoint");
                thread.setDaemon(true);
                return thread;
            });
            TokenEndpoint endpoint = new TokenEndpoint(server, executor, issuer, clientId, clientSecret);
            server.createContext(PATH, endpoint::answer);
            server.setExecutor(executor);
            server.start();
            return endpoint;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the token endpoint on port " + port, e);
        }
    }

    /** A fresh random client secret (32 bytes, URL-safe base64). */
    public static String newSecret() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The base URL ({@code http://<loopback>:<port>}): an OIDC client's auth-server-url, with {@link #PATH} its token path. */
    public String baseUrl() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /** The secret of the one client this endpoint serves. */
    public String clientSecret() {
        return clientSecret;
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "POST");
                send(exchange, 405, "{\"error\":\"invalid_request\",\"error_description\":\"POST only\"}");
                return;
            }
            Map<String, String> form;
            String[] basic;
            try {
                form = form(exchange.getRequestBody());
                basic = basicCredentials(exchange.getRequestHeaders().getFirst("Authorization"));
            } catch (IllegalArgumentException e) {
                send(exchange, 400, "{\"error\":\"invalid_request\"}");
                return;
            }
            if (!"client_credentials".equals(form.get("grant_type"))) {
                send(exchange, 400, "{\"error\":\"unsupported_grant_type\"}");
                return;
            }
            if (basic != null && basic != BAD_BASIC && form.containsKey("client_secret")) {
                // RFC 6749 2.3: a client uses one way of authenticating per request.
                send(exchange, 400, "{\"error\":\"invalid_request\"}");
                return;
            }
            String[] client = basic != null ? basic : new String[] { form.get("client_id"), form.get("client_secret") };
            if (client == BAD_BASIC || !clientId.equals(client[0]) || client[1] == null || !MessageDigest.isEqual(
                    clientSecret.getBytes(StandardCharsets.UTF_8), client[1].getBytes(StandardCharsets.UTF_8))) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"orderflow\"");
                send(exchange, 401, "{\"error\":\"invalid_client\"}");
                return;
            }
            String token = issuer.token(clientId, List.of("service"), null, LIFETIME);
            send(exchange, 200, "{\"access_token\":\"" + token + "\",\"token_type\":\"Bearer\",\"expires_in\":"
                    + LIFETIME.toSeconds() + "}");
        }
    }

    /** The client id and secret of a Basic header; null without one, {@link #BAD_BASIC} for a malformed one. */
    private static String[] basicCredentials(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return BAD_BASIC;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return BAD_BASIC;
        }
        // RFC 6749 2.3.1: both parts are form-encoded before they are joined.
        return new String[] { URLDecoder.decode(decoded.substring(0, colon), StandardCharsets.UTF_8),
                URLDecoder.decode(decoded.substring(colon + 1), StandardCharsets.UTF_8) };
    }

    private static Map<String, String> form(InputStream body) throws IOException {
        // A token request is a few fields: a larger body is refused, not cut.
        byte[] bytes = body.readNBytes(MAX_BODY + 1);
        if (bytes.length > MAX_BODY) {
            throw new IllegalArgumentException("body over " + MAX_BODY + " bytes");
        }
        Map<String, String> fields = new HashMap<>();
        for (String pair : new String(bytes, StandardCharsets.UTF_8).split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                fields.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return fields;
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
