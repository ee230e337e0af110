package dev.orderflow.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** What the stream records for each kind of answer, against a small HTTP server standing in for the services. */
class OrderStreamTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, String> bodies = new ConcurrentHashMap<>();

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aCreatedOrderIsRecordedWithItsIdAmountAndPostTime() throws Exception {
        serve(201, "{\"orderId\":\"o-1\",\"amount\":\"12.34\",\"status\":\"CREATED\"}");
        try (OrderStream stream = stream()) {
            Optional<String> placed = stream.placeRandomOrder(new Random(7), "T");

            assertThat(placed).contains("o-1");
            assertThat(stream.acceptedCount()).isEqualTo(1);
            assertThat(stream.accepted().get("o-1").amount()).isEqualByComparingTo(new BigDecimal("12.34"));
            assertThat(stream.acceptedPostNanos()).hasSize(1);
            assertThat(stream.acceptedSentAt()).containsKey("o-1");
            assertThat(stream.refused() + stream.unanswered()).isZero();
        }
        assertThat(requests).containsExactly("POST /orders application/json");
        JsonNode sent = JSON.readTree(bodies.get("POST /orders"));
        assertThat(sent.path("customerId").asText()).startsWith("T-");
        assertThat(sent.path("phone").asText()).isEqualTo(OrderStream.PHONE);
        assertThat(sent.path("items").size()).isBetween(1, 3);
        assertThat(sent.path("items").get(0).path("sku").asText()).isIn(OrderStream.SKUS);
    }

    @Test
    void anAnswerOtherThan201IsARefusal() throws Exception {
        serve(503, "{\"title\":\"Service Unavailable\"}");
        try (OrderStream stream = stream()) {
            assertThat(stream.placeRandomOrder(new Random(7), "T")).isEmpty();
            assertThat(stream.placeRandomOrder(new Random(8), "T")).isEmpty();

            assertThat(stream.refused()).isEqualTo(2);
            assertThat(stream.unanswered()).isZero();
            assertThat(stream.acceptedCount()).isZero();
            assertThat(stream.finishedCount()).isEqualTo(2);
        }
        // Both on one kept-alive connection or two: either way each POST reached the server once.
        assertThat(requests).hasSize(2);
    }

    @Test
    void aConnectionClosedWithoutAnAnswerIsUnansweredAndThePostIsNotRetried() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try (Socket socket = silent.accept()) {
                        connections.incrementAndGet();
                        readRequestHead(socket.getInputStream());
                        // closed without a byte of answer: the outcome is unknown to the client
                    } catch (IOException e) {
                        return; // the server socket was closed at the end of the test
                    }
                }
            });
            acceptor.start();
            String url = "http://127.0.0.1:" + silent.getLocalPort();
            try (OrderStream stream = new OrderStream(() -> url, 1, 10, Duration.ZERO, 0)) {
                assertThat(stream.placeRandomOrder(new Random(7), "T")).isEmpty();

                assertThat(stream.unanswered()).isEqualTo(1);
                assertThat(stream.refused()).isZero();
                assertThat(stream.inFlight()).isZero();
            }
            silent.close();
            acceptor.join(5_000);
        }
        assertThat(connections).hasValue(1);
    }

    @Test
    void aPortNobodyListensOnIsUnanswered() throws Exception {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        try (OrderStream stream = new OrderStream(() -> "http://127.0.0.1:" + closedPort, 1, 10, Duration.ZERO, 0)) {
            assertThat(stream.placeRandomOrder(new Random(7), "T")).isEmpty();
            assertThat(stream.unanswered()).isEqualTo(1);
        }
    }

    @Test
    void seedingStockPutsEverySkuAndFailsOnAnotherAnswer() throws Exception {
        serve(200, "{}");
        try (OrderStream stream = stream()) {
            stream.seedStock(url());
        }
        assertThat(requests).containsExactlyInAnyOrderElementsOf(
                OrderStream.SKUS.stream().map(sku -> "PUT /stock/" + sku + " application/json").toList());
        assertThat(bodies.get("PUT /stock/" + OrderStream.SKUS.get(0)))
                .isEqualTo("{\"available\":" + OrderStream.INITIAL_STOCK + "}");

        stopServer();
        serve(400, "{\"title\":\"Bad Request\"}");
        try (OrderStream stream = stream()) {
            assertThatThrownBy(() -> stream.seedStock(url())).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("PUT /stock/" + OrderStream.SKUS.get(0) + " answered 400");
        }
    }

    private OrderStream stream() {
        return new OrderStream(this::url, 2, 10, Duration.ZERO, 0);
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A server answering every request with {@code status} and {@code body}, recording method, path, content type and body. */
    private void serve(int status, String body) throws IOException {
        requests.clear();
        bodies.clear();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> answer(exchange, status, body));
        server.start();
    }

    private void answer(HttpExchange exchange, int status, String body) throws IOException {
        String request = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
        bodies.put(request, new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        requests.add(request + " " + (contentType == null ? "-" : contentType.split(";")[0]));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    /** Reads up to the blank line that ends a request's head (the body, if any, is left unread). */
    private static void readRequestHead(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        int b;
        while (matched < end.length && (b = in.read()) != -1) {
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }
}
