package dev.orderflow.suite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpPut;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.ParseException;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.order.events.OrderItem;
import dev.orderflow.tokens.TokenIssuer;

/**
 * The steady stream of orders and cancellations the faults hit: {@code workers} clients, each
 * placing an order, then (one time in {@code cancelEvery}) cancelling one it placed earlier,
 * paced by {@code pause}, until {@link #stop()} or {@code maxOrders} orders were attempted.
 * Records what the clients were told: 201 (accepted), a refusal, or no answer (outcome unknown:
 * the reconciliation goes by the order database for those), and how long each accepted POST took.
 * The load tests also drive it at a fixed rate ({@link #placeRandomOrder}).
 */
public final class OrderStream implements AutoCloseable {

    /** SKUs of the stream, seeded with stock far above what the stream can take. */
    public static final List<String> SKUS = List.of("FAULT-SKU-1", "FAULT-SKU-2", "FAULT-SKU-3", "FAULT-SKU-4");
    public static final long INITIAL_STOCK = 10_000_000L;
    /** A SKU never in stock: an order with a line of it fails (inventory rejects it) and is compensated. */
    public static final String SHORT_SKU = "FAULT-SKU-SHORT";
    public static final String PHONE = "+819012345678";

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A client's pause after a request that was refused or got no answer. */
    private static final Duration REFUSED_BACKOFF = Duration.ofSeconds(1);

    /** How long a request may wait to connect, and then for its answer, before it counts as unanswered. */
    /** Each worker (and each caller of {@link #placeRandomOrder}) orders for this many customers of its own. */
    private static final int CUSTOMERS_PER_WORKER = 20;
    private static final Timeout CONNECT_TIMEOUT = Timeout.ofSeconds(2);
    private static final Timeout ANSWER_TIMEOUT = Timeout.ofSeconds(20);

    /**
     * Blocking HTTP/1.1 with a pooled keep-alive connection per client thread: the calling thread
     * writes the request and reads the answer itself, where JDK's HttpClient hands each answer from
     * its selector thread to the caller. No retries: a POST that got no answer stays unanswered.
     */
    private final CloseableHttpClient http;
    private final Supplier<String> orderUrl;
    private final List<String> skus;
    private final int maxOrders;
    private final Duration pause;
    private final int cancelEvery;
    private volatile int failEvery;
    /** Signs the callers' tokens; null for a suite without authentication (the Spring Boot reference). */
    private volatile TokenIssuer tokens;
    /** Each customer's token, minted once: a customer reuses its token as a real client does. */
    private final Map<String, String> customerTokens = new ConcurrentHashMap<>();
    private final ExecutorService workers;
    private final int workerCount;
    private final AtomicInteger attempted = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger unanswered = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final Map<String, AcceptedOrder> accepted = new ConcurrentHashMap<>();
    private final Map<String, Integer> cancelAnswers = new ConcurrentHashMap<>();
    /** Client-side duration of each POST /orders answered 201, in nanoseconds. */
    private final java.util.Queue<Long> acceptedPostNanos = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** When the client sent each POST /orders answered 201 (wall clock), by order id. */
    private final Map<String, java.time.Instant> acceptedSentAt = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    private volatile boolean exhausted;

    /** What POST /orders answered 201 for. */
    public record AcceptedOrder(String orderId, String customerId, List<OrderItem> items, BigDecimal amount) {
    }

    /**
     * @param orderUrl the current base URL of order-service (it changes only if its port does)
     * @param cancelEvery one order in this many is followed by a cancel; 0 for none
     */
    public OrderStream(Supplier<String> orderUrl, int workers, int maxOrders, Duration pause, int cancelEvery) {
        this(orderUrl, SKUS, workers, maxOrders, pause, cancelEvery);
    }

    /**
     * @param skus the SKUs orders draw their lines from (at least three), each seeded by
     *             {@link #seedStock(String)} with {@link #INITIAL_STOCK}
     */
    public OrderStream(Supplier<String> orderUrl, List<String> skus, int workers, int maxOrders, Duration pause,
            int cancelEvery) {
        if (skus.size() < 3) {
            throw new IllegalArgumentException("An order has up to three distinct SKUs: give at least three, not " + skus);
        }
        this.orderUrl = orderUrl;
        this.skus = List.copyOf(skus);
        this.workerCount = workers;
        this.maxOrders = maxOrders;
        this.pause = pause;
        this.cancelEvery = cancelEvery;
        this.workers = Executors.newFixedThreadPool(workers);
        this.http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(workers + 1).setMaxConnPerRoute(workers + 1)
                        .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(CONNECT_TIMEOUT)
                                .setSocketTimeout(ANSWER_TIMEOUT).build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(ANSWER_TIMEOUT).build())
                .disableAutomaticRetries().disableCookieManagement().disableRedirectHandling()
                .disableContentCompression().disableAuthCaching()
                .build();
    }

    /** An answer: its status code and body. */
    private record Answer(int statusCode, String body) {
    }

    /**
     * Makes about one order in {@code every} fail on purpose: it gets a line of {@link #SHORT_SKU},
     * which is never in stock. 0 (the default): none. Set before {@link #start()}.
     */
    public OrderStream failingOneIn(int every) {
        this.failEvery = every;
        return this;
    }

    /**
     * Sends every request with a bearer token of {@code issuer}: an order and its cancel as the
     * order's customer, the stock as an inventory manager. Set before {@link #seedStock} and {@link #start()}.
     */
    public OrderStream withTokens(TokenIssuer issuer) {
        this.tokens = issuer;
        // The workers' customers' tokens now, not while orders are measured: an RSA signature costs the
        // load generator milliseconds of CPU in a C1-only JVM, taken from the suite on a shared machine.
        for (int w = 0; w < workerCount; w++) {
            for (int n = 0; n < CUSTOMERS_PER_WORKER; n++) {
                customerTokens.computeIfAbsent(customerOf(workerPrefix(w), n), issuer::customer);
            }
        }
        return this;
    }

    /** PUT /stock for every SKU of the stream (and 0 of {@link #SHORT_SKU} when orders fail on purpose). */
    public void seedStock(String inventoryUrl) {
        List<String> seeded = new ArrayList<>(skus);
        if (failEvery > 0) {
            seeded.add(SHORT_SKU);
        }
        for (String sku : seeded) {
            HttpPut put = new HttpPut(inventoryUrl + "/stock/" + sku);
            long available = sku.equals(SHORT_SKU) ? 0 : INITIAL_STOCK;
            put.setEntity(new StringEntity("{\"available\":" + available + "}", ContentType.APPLICATION_JSON));
            if (tokens != null) {
                put.setHeader("Authorization", "Bearer " + tokens.user("fault-stock", "inventory-manager"));
            }
            Answer response = send(put);
            if (response == null || response.statusCode() != 200) {
                throw new IllegalStateException("PUT /stock/" + sku + " answered "
                        + (response == null ? "nothing" : response.statusCode() + " " + response.body()));
            }
        }
    }

    public void start() {
        for (int w = 0; w < workerCount; w++) {
            long seed = 9_000L + w;
            String prefix = workerPrefix(w);
            workers.submit(() -> run(new Random(seed), prefix));
        }
    }

    private void run(Random random, String customerPrefix) {
        List<String> mine = new ArrayList<>();
        while (!stopping && attempted.incrementAndGet() <= maxOrders) {
            String customer = customerOf(customerPrefix, random.nextInt(CUSTOMERS_PER_WORKER));
            java.util.Optional<String> placed = placeOrder(customer, randomItems(random));
            placed.ifPresent(mine::add);
            if (cancelEvery > 0 && !mine.isEmpty() && random.nextInt(cancelEvery) == 0) {
                cancel(mine.remove(random.nextInt(mine.size())));
            }
            // While order-service is down or answers 503, back off: the stream must last through every fault.
            pace(placed.isPresent() ? pause : REFUSED_BACKOFF);
        }
        exhausted = attempted.get() >= maxOrders;
    }

    /** One order of random lines for one of 20 customers named {@code customerPrefix-<n>}; its id if accepted. */
    public java.util.Optional<String> placeRandomOrder(Random random, String customerPrefix) {
        return placeOrder(customerOf(customerPrefix, random.nextInt(CUSTOMERS_PER_WORKER)), randomItems(random));
    }

    private static String workerPrefix(int worker) {
        return "FC-" + (9_000L + worker);
    }

    private static String customerOf(String prefix, int n) {
        return prefix + "-" + n;
    }

    private java.util.Optional<String> placeOrder(String customer, List<OrderItem> items) {
        StringBuilder body = new StringBuilder("{\"customerId\":\"").append(customer).append("\",\"phone\":\"")
                .append(PHONE).append("\",\"items\":[");
        for (int i = 0; i < items.size(); i++) {
            OrderItem item = items.get(i);
            body.append(i == 0 ? "" : ",").append("{\"sku\":\"").append(item.sku()).append("\",\"quantity\":")
                    .append(item.quantity()).append(",\"unitPrice\":\"").append(item.unitPrice().toPlainString())
                    .append("\"}");
        }
        body.append("]}");
        java.time.Instant sentAt = java.time.Instant.now();
        long postStarted = System.nanoTime();
        HttpPost post = new HttpPost(orderUrl.get() + "/orders");
        post.setEntity(new StringEntity(body.toString(), ContentType.APPLICATION_JSON));
        authorizeAs(post, customer);
        Answer response = send(post);
        long postNanos = System.nanoTime() - postStarted;
        if (response == null) {
            unanswered.incrementAndGet();
            return java.util.Optional.empty();
        }
        if (response.statusCode() != 201) {
            refused.incrementAndGet();
            return java.util.Optional.empty();
        }
        try {
            JsonNode created = JSON.readTree(response.body());
            String orderId = created.path("orderId").asText();
            accepted.put(orderId, new AcceptedOrder(orderId, customer, items, new BigDecimal(created.path("amount").asText())));
            acceptedPostNanos.add(postNanos);
            acceptedSentAt.put(orderId, sentAt);
            return java.util.Optional.of(orderId);
        } catch (IOException e) {
            throw new IllegalStateException("POST /orders answered 201 with an unreadable body: " + response.body(), e);
        }
    }

    private void cancel(String orderId) {
        HttpPost post = new HttpPost(orderUrl.get() + "/orders/" + orderId + "/cancel");
        authorizeAs(post, accepted.get(orderId).customerId());
        Answer response = send(post);
        cancelAnswers.put(orderId, response == null ? -1 : response.statusCode());
    }

    private void authorizeAs(ClassicHttpRequest request, String customer) {
        if (tokens != null) {
            request.setHeader("Authorization", "Bearer " + customerTokens.computeIfAbsent(customer, tokens::customer));
        }
    }

    /** One request; null when it got no answer (connection refused or reset, timeout). */
    private Answer send(ClassicHttpRequest request) {
        inFlight.incrementAndGet();
        try {
            return http.execute(request, response -> {
                try {
                    return new Answer(response.getCode(),
                            response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity()));
                } catch (ParseException e) {
                    throw new IOException("Unreadable answer to " + request.getRequestUri(), e);
                }
            });
        } catch (IOException e) {
            return null;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** The stream's pace between two requests of a worker (a rate limit, not a wait for a condition). */
    private void pace(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping = true;
        }
    }

    /** The SKUs orders draw from. */
    public List<String> skus() {
        return skus;
    }

    /** One to three lines of distinct SKUs, quantity 1-5, unit price 0.01-99.99. */
    private List<OrderItem> randomItems(Random random) {
        int lines = 1 + random.nextInt(3);
        List<String> picked = new ArrayList<>(lines);
        while (picked.size() < lines) {
            String sku = skus.get(random.nextInt(skus.size()));
            if (!picked.contains(sku)) {
                picked.add(sku);
            }
        }
        List<OrderItem> items = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            items.add(new OrderItem(picked.get(i), 1 + random.nextInt(5),
                    BigDecimal.valueOf(1 + random.nextInt(9_999), 2)));
        }
        if (failEvery > 0 && random.nextInt(failEvery) == 0) {
            items.add(new OrderItem(SHORT_SKU, 1, BigDecimal.valueOf(1 + random.nextInt(9_999), 2)));
        }
        return items;
    }

    /** Stops the workers after their current request; waits for them (bounded). */
    public void stop() {
        stopping = true;
        workers.shutdown();
        try {
            if (!workers.awaitTermination(60, TimeUnit.SECONDS)) {
                workers.shutdownNow();
                throw new IllegalStateException("Order stream workers did not stop within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            workers.shutdownNow();
        }
    }

    @Override
    public void close() {
        stopping = true;
        workers.shutdownNow();
        try {
            http.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close the order stream's HTTP connections", e);
        }
    }

    /** Whether a client stopped because {@code maxOrders} were attempted (rather than by {@link #stop()}). */
    public boolean exhausted() {
        return exhausted;
    }

    public int inFlight() {
        return inFlight.get();
    }

    public int acceptedCount() {
        return accepted.size();
    }

    /** Orders whose POST has ended: accepted, refused or unanswered. */
    public int finishedCount() {
        return acceptedCount() + refused() + unanswered();
    }

    public Map<String, AcceptedOrder> accepted() {
        return Map.copyOf(accepted);
    }

    /** Client-side duration of every POST /orders that was answered 201, in nanoseconds. */
    public List<Long> acceptedPostNanos() {
        return List.copyOf(acceptedPostNanos);
    }

    /**
     * When the client sent each POST /orders that was answered 201 (wall clock), by order id: the
     * start of an order as the client sees it, before any wait inside the service.
     */
    public Map<String, java.time.Instant> acceptedSentAt() {
        return Map.copyOf(acceptedSentAt);
    }

    public int unanswered() {
        return unanswered.get();
    }

    public int refused() {
        return refused.get();
    }

    /** The accepted orders meant to fail: those with a line of {@link #SHORT_SKU}. */
    public Set<String> failing() {
        return accepted.values().stream().filter(o -> o.items().stream().anyMatch(i -> i.sku().equals(SHORT_SKU)))
                .map(AcceptedOrder::orderId).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /** Status code of each cancel request, -1 when it got no answer. */
    public Map<String, Integer> cancelAnswers() {
        return Map.copyOf(cancelAnswers);
    }
}
