package dev.orderflow.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.tokens.TokenIssuer;

/**
 * The HTTP calls of a local run: seeding demo stock (as an inventory manager) and placing one demo
 * order (as its customer), each with a token of the suite's issuer.
 */
final class DemoClient {

    /** SKUs the demo order and the README's curl use; seeded when the inventory service has none. */
    static final String[] DEMO_SKUS = {"SKU-1", "SKU-2", "SKU-3"};

    /** The customer of the demo order and of the README's curl. */
    static final String DEMO_CUSTOMER = "C-1";

    static final String DEMO_ORDER = "{\"customerId\":\"" + DEMO_CUSTOMER + "\",\"phone\":\"+819012345678\","
            + "\"items\":[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":\"12.50\"}]}";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final PrintStream out;
    private final String stockManager;
    private final String customer;

    DemoClient(PrintStream out, TokenIssuer tokens) {
        this.out = out;
        this.stockManager = "Bearer " + tokens.user("run-local", "inventory-manager");
        this.customer = "Bearer " + tokens.customer(DEMO_CUSTOMER);
    }

    /** Sets 100000 units for each demo SKU the inventory does not know yet; existing stock is kept. */
    void seedStock(String inventoryUrl) throws IOException, InterruptedException {
        for (String sku : DEMO_SKUS) {
            URI uri = URI.create(inventoryUrl + "/stock/" + sku);
            HttpResponse<String> current = send(HttpRequest.newBuilder(uri).header("Authorization", stockManager).GET());
            if (current.statusCode() == 200) {
                out.printf("  stock %s: %s (kept)%n", sku, JSON.readTree(current.body()).path("available").asText());
                continue;
            }
            HttpResponse<String> put = send(HttpRequest.newBuilder(uri)
                    .header("Content-Type", "application/json").header("Authorization", stockManager)
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"available\":100000}")));
            if (put.statusCode() / 100 != 2) {
                throw new IllegalStateException("PUT " + uri + " answered " + put.statusCode() + ": " + put.body());
            }
            out.printf("  stock %s: 100000 (seeded)%n", sku);
        }
    }

    /**
     * Places the demo order and long-polls its status until it leaves PENDING.
     *
     * @return the final status document
     * @throws IllegalStateException when the order is refused or not COMPLETED within {@code timeout}
     */
    JsonNode placeOrderAndAwait(String orderUrl, String statusUrl, Duration timeout)
            throws IOException, InterruptedException {
        HttpResponse<String> created = send(HttpRequest.newBuilder(URI.create(orderUrl + "/orders"))
                .header("Content-Type", "application/json").header("Authorization", customer)
                .POST(HttpRequest.BodyPublishers.ofString(DEMO_ORDER)));
        if (created.statusCode() != 201) {
            throw new IllegalStateException("POST /orders answered " + created.statusCode() + ": " + created.body());
        }
        String orderId = JSON.readTree(created.body()).path("orderId").asText("");
        if (orderId.isEmpty()) {
            throw new IllegalStateException("POST /orders answered without an orderId: " + created.body());
        }
        out.println("  placed order " + orderId + ": " + created.body());

        URI status = URI.create(statusUrl + "/orders/" + orderId + "/status?wait=PT10S");
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            // 404 until the status service has seen the create message; PENDING until all consumers are done.
            HttpResponse<String> response = send(HttpRequest.newBuilder(status).timeout(Duration.ofSeconds(15))
                    .header("Authorization", customer).GET());
            last = response.statusCode() + " " + response.body();
            if (response.statusCode() == 200) {
                JsonNode body = JSON.readTree(response.body());
                String state = body.path("state").asText();
                if ("COMPLETED".equals(state)) {
                    return body;
                }
                if (!"PENDING".equals(state)) {
                    throw new IllegalStateException("Order " + orderId + " ended " + state + ": " + response.body());
                }
            } else if (response.statusCode() == 404) {
                Thread.sleep(500);
            } else {
                throw new IllegalStateException("GET " + status + " answered " + last);
            }
        }
        throw new IllegalStateException("Order " + orderId + " not COMPLETED within " + timeout + "; last: " + last);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpRequest built = request.build();
        if (built.timeout().isEmpty()) {
            built = request.timeout(Duration.ofSeconds(10)).build();
        }
        return http.send(built, HttpResponse.BodyHandlers.ofString());
    }
}
