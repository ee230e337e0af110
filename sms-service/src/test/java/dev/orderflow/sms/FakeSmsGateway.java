package dev.orderflow.sms;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A third-party SMS provider for the tests: an HTTP server on a free loopback port (JDK
 * {@code com.sun.net.httpserver}). Like a real provider it honours {@code Idempotency-Key}: a key
 * it has already texted is answered 200 again without a second text. Tests script the answers per
 * key ({@link #script}); unscripted calls are answered 200. An outage answers every call alike
 * ({@link #failEveryCall}) until {@link #recover}.
 *
 * <p>It records every call (what the service sent) and every text (what the customer received).
 */
public final class FakeSmsGateway {

    public static final String PATH = "/messages";

    private static volatile FakeSmsGateway running;

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ObjectMapper mapper = new ObjectMapper();
    private final Map<String, Deque<Answer>> scripts = new ConcurrentHashMap<>();
    private final Set<String> textedKeys = ConcurrentHashMap.newKeySet();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Text> texts = new CopyOnWriteArrayList<>();
    /** While set, the answer to every call, scripted or not (an outage of the whole provider). */
    private volatile Answer outage;

    private FakeSmsGateway() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(PATH, this::handle);
        // Several requests at once: one stalled answer must not hold up the others.
        server.setExecutor(executor);
        server.start();
    }

    static synchronized FakeSmsGateway start() throws IOException {
        if (running == null) {
            running = new FakeSmsGateway();
        }
        return running;
    }

    static synchronized void stop() {
        if (running != null) {
            running.server.stop(0);
            running.executor.shutdownNow();
            running = null;
        }
    }

    /** The gateway the application under test talks to. */
    public static FakeSmsGateway running() {
        FakeSmsGateway gateway = running;
        if (gateway == null) {
            throw new IllegalStateException("FakeSmsGateway is not running: is the test annotated with "
                    + "@WithTestResource(FakeSmsGatewayResource.class)?");
        }
        return gateway;
    }

    public String url() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + PATH;
    }

    /** The next calls with {@code idempotencyKey} get these answers, in order; later ones get 200. */
    public void script(String idempotencyKey, Answer... answers) {
        scripts.computeIfAbsent(idempotencyKey, k -> new ArrayDeque<>()).addAll(List.of(answers));
    }

    /** Until {@link #recover()}, every call gets {@code answer}; scripts are kept for afterwards. */
    public void failEveryCall(Answer answer) {
        outage = answer;
    }

    /** Ends {@link #failEveryCall}: scripts, then 200, again. */
    public void recover() {
        outage = null;
    }

    /** How many calls arrived so far, whatever their key. */
    public int callCount() {
        return calls.size();
    }

    /** Every call made with this key, in arrival order. */
    public List<Call> callsWithKey(String idempotencyKey) {
        return calls.stream().filter(c -> idempotencyKey.equals(c.idempotencyKey())).toList();
    }

    /** Every call for this phone number, in arrival order. */
    public List<Call> callsTo(String phone) {
        return calls.stream().filter(c -> phone.equals(c.to())).toList();
    }

    /** The texts this phone number received, in order. */
    public List<Text> textsTo(String phone) {
        return texts.stream().filter(t -> phone.equals(t.to())).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            JsonNode json = mapper.readTree(body);
            String to = json.path("to").asText(null);
            String text = json.path("text").asText(null);
            Answer answer = outage;
            if (answer == null) {
                Deque<Answer> script = key == null ? null : scripts.get(key);
                answer = script == null ? null : script.poll();
            }
            if (answer == null) {
                answer = Answer.ok();
            }
            calls.add(new Call(key, to, text, body, answer.status()));
            if (key == null || to == null || text == null) {
                respond(exchange, 400, "{\"error\":\"Idempotency-Key, to and text are required\"}");
                return;
            }
            if (answer.textsCustomer() && textedKeys.add(key)) {
                texts.add(new Text(key, to, text));
            }
            if (answer.stallMillis() > 0) {
                Thread.sleep(answer.stallMillis());
            }
            respond(exchange, answer.status(), "{\"status\":" + answer.status() + "}");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // The client gave up (read timeout) before a stalled answer: expected in timeout tests.
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * How the provider answers one call.
     *
     * @param status       HTTP status returned
     * @param textsCustomer whether the provider texts the customer (once per key) before answering
     * @param stallMillis  how long it waits before answering (longer than the client's read timeout = a lost answer)
     */
    public record Answer(int status, boolean textsCustomer, long stallMillis) {

        public static Answer ok() {
            return new Answer(200, true, 0);
        }

        /** Fails on the provider's side before texting anybody. */
        public static Answer serverError() {
            return new Answer(500, false, 0);
        }

        /** Refuses the text for good. */
        public static Answer badRequest() {
            return new Answer(400, false, 0);
        }

        /** Texts the customer, then answers only after {@code millis}: the client sees a timeout. */
        public static Answer textsButAnswersAfter(long millis) {
            return new Answer(200, true, millis);
        }
    }

    /** One HTTP call as the provider saw it. */
    public record Call(String idempotencyKey, String to, String text, String body, int answeredStatus) {
    }

    /** One text a customer received. */
    public record Text(String idempotencyKey, String to, String text) {
    }
}
