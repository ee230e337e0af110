package dev.orderflow.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TokenEndpointTest {

    private static final TokenIssuer ISSUER = TokenIssuer.forTests();
    private static final String SECRET = TokenEndpoint.newSecret();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TokenEndpoint endpoint;

    @BeforeAll
    static void start() {
        endpoint = TokenEndpoint.start(ISSUER, 0, "status-service", SECRET);
    }

    @AfterAll
    static void stop() {
        endpoint.close();
    }

    @Test
    void aClientWithItsSecretGetsAServiceTokenNamedAfterIt() throws Exception {
        HttpResponse<String> basic = post("grant_type=client_credentials", basic("status-service", SECRET));
        assertThat(basic.statusCode()).isEqualTo(200);
        assertThat(basic.headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(basic.body()).contains("\"token_type\":\"Bearer\"", "\"expires_in\":600");
        JwtClaims claims = TokenIssuerTest.verify(accessToken(basic.body()), ISSUER.publicKey());
        assertThat(claims.getSubject()).isEqualTo("status-service");
        assertThat(claims.getStringListClaimValue(TokenIssuer.ROLES_CLAIM)).containsExactly("service");

        HttpResponse<String> inForm = post("grant_type=client_credentials&client_id=status-service&client_secret="
                + SECRET, null);
        assertThat(inForm.statusCode()).isEqualTo(200);
    }

    @Test
    void anythingElseIsRefused() throws Exception {
        assertThat(post("grant_type=client_credentials", basic("status-service", "wrong")).statusCode()).isEqualTo(401);
        assertThat(post("grant_type=client_credentials", basic("order-service", SECRET)).statusCode()).isEqualTo(401);
        assertThat(post("grant_type=client_credentials", null).statusCode()).isEqualTo(401);
        HttpResponse<String> password = post("grant_type=password&username=a&password=b", basic("status-service", SECRET));
        assertThat(password.statusCode()).isEqualTo(400);
        assertThat(password.body()).contains("unsupported_grant_type");
        assertThat(post("grant_type=%zz", basic("status-service", SECRET)).statusCode()).isEqualTo(400);
        assertThat(post("grant_type=client_credentials&pad=" + "x".repeat(9000), basic("status-service", SECRET))
                .statusCode()).as("a body over 8 KiB").isEqualTo(400);
        assertThat(post("grant_type=client_credentials&client_id=status-service&client_secret=" + SECRET,
                basic("status-service", SECRET)).statusCode()).as("both ways of authenticating").isEqualTo(400);
        assertThat(post("grant_type=client_credentials&client_id=status-service&client_secret=" + SECRET,
                "Basic !!!").statusCode()).as("a malformed Basic header, not the form").isEqualTo(401);
        HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create(endpoint.baseUrl() + TokenEndpoint.PATH))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
    }

    private static HttpResponse<String> post(String form, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint.baseUrl() + TokenEndpoint.PATH))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(String id, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((id + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    private static String accessToken(String body) {
        Matcher token = Pattern.compile("\"access_token\":\"([^\"]+)\"").matcher(body);
        assertThat(token.find()).isTrue();
        return token.group(1);
    }
}
