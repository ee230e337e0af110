package dev.orderflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.remoting.RPCHook;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

import dev.orderflow.e2e.SuiteClient.Item;
import dev.orderflow.e2e.SuiteClient.PlacedOrder;
import dev.orderflow.launcher.BrokerAccounts;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.suite.SuiteUnderTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * The whole suite end to end: five services as separate processes, one real broker,
 * real MariaDB, driven over HTTP. Every test uses its own SKUs and customers, so the tests do not
 * depend on each other or on their order.
 */
@Tag("system") // starts the five services: mvn verify -Psystem
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class OrderFlowIT {

    /** One order, from POST to a final state: generous for 2 busy cores, far below a hang. */
    private static final Duration ORDER_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Small heaps (five JVMs share the machine), no metaspace full collections while starting (as the
     * launcher's services), shorter intervals where the services allow them: the client's first
     * rebalance after a subscription change, the SMS dispatcher's sweep; and reconciliation reports a
     * missing effect at once, without waiting for an order to settle.
     */
    static final String DEFAULT_SERVICE_JVM_OPTIONS = "-Xmx128m -XX:+UseSerialGC -XX:MetaspaceSize=64m"
            + " -Drocketmq.client.rebalance.waitInterval=2000"
            + " -Dsms-service.dispatch.sweep-interval=PT1S"
            + " -Dorderflow.reconciliation.settle-time=PT0S";

    private static SuiteUnderTest suite;
    private static SuiteClient client;

    /** On a failed test: which services died, and the last lines of every service's log. */
    @RegisterExtension
    static final TestWatcher SERVICE_LOGS_ON_FAILURE = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (suite != null) {
                System.out.println("\n" + context.getDisplayName() + " failed; services that exited: "
                        + suite.unexpectedExits());
                suite.printLogTails(80);
            }
        }
    };

    @BeforeAll
    static void startSuite() {
        long startedAt = System.nanoTime();
        suite = startedSuite();
        client = new SuiteClient(suite);
        System.out.printf("e2e: suite ready in %.1f s%n", (System.nanoTime() - startedAt) / 1e9);
    }

    /**
     * The suite under test with fresh {@code orderflow_e2e_*} databases and every service connected to
     * MariaDB directly. System properties: {@code orderflow.e2e.root} (repository root, required),
     * {@code orderflow.e2e.run-dir} (logs, broker store; wiped at start),
     * {@code orderflow.e2e.mariadb.host|port} (127.0.0.1, 3306; user root, empty password),
     * {@code orderflow.e2e.service-jvm-options} (default {@link #DEFAULT_SERVICE_JVM_OPTIONS}).
     */
    private static SuiteUnderTest startedSuite() {
        String root = System.getProperty("orderflow.e2e.root");
        if (root == null || root.isBlank()) {
            throw new IllegalStateException("System property orderflow.e2e.root is not set (the module's pom sets it)");
        }
        Path rootDir = Path.of(root).toAbsolutePath().normalize();
        Path runDir = Path.of(System.getProperty("orderflow.e2e.run-dir",
                rootDir.resolve("testing/e2e-tests/target/e2e-run").toString())).toAbsolutePath().normalize();
        List<String> jvmOptions = List.of(System.getProperty("orderflow.e2e.service-jvm-options",
                DEFAULT_SERVICE_JVM_OPTIONS).trim().split("\\s+"));
        return SuiteUnderTest.start(rootDir, runDir, "orderflow_e2e_", jvmOptions,
                System.getProperty("orderflow.e2e.mariadb.host", "127.0.0.1"),
                Integer.parseInt(System.getProperty("orderflow.e2e.mariadb.port", "3306")), false, System.out);
    }

    @AfterAll
    static void stopSuite() {
        if (suite == null) {
            return;
        }
        long stoppingAt = System.nanoTime();
        suite.close();
        System.out.printf("e2e: suite stopped in %.1f s%n", (System.nanoTime() - stoppingAt) / 1e9);
        // Nothing this JVM started may outlive the run: no service, no grandchild of one.
        List<ProcessHandle> left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        assertThat(left).as("processes left behind by the suite").isEmpty();
    }

    /**
     * The broker admits each service's own account only: no credentials, or another service's,
     * neither send to order_topic nor consume as inventory_group (the services themselves run with
     * theirs, as every other test here shows); the order service's own account may send.
     */
    @Test
    void theBrokerRefusesClientsWithoutTheRightServicesCredentials() throws Exception {
        BrokerAccess broker = new BrokerAccess(suite.nameServerAddress());
        BrokerAccounts accounts = suite.brokerAccounts();
        RPCHook inventory = BrokerAccess.as("inventory-service", accounts.secretKey("inventory-service"));
        RPCHook points = BrokerAccess.as("points-service", accounts.secretKey("points-service"));
        RPCHook forged = BrokerAccess.as("order-service", "not-its-secret");

        BrokerAccess.assertRefused(() -> {
            broker.send(null, OrderMessaging.TOPIC);
            return null;
        });
        BrokerAccess.assertRefused(() -> {
            broker.send(inventory, OrderMessaging.TOPIC);
            return null;
        });
        BrokerAccess.assertRefused(() -> {
            broker.send(forged, OrderMessaging.TOPIC);
            return null;
        });
        BrokerAccess.assertRefused(() -> {
            broker.pull(null, OrderMessaging.INVENTORY_GROUP, OrderMessaging.TOPIC);
            return null;
        });
        BrokerAccess.assertRefused(() -> {
            broker.pull(points, OrderMessaging.INVENTORY_GROUP, OrderMessaging.TOPIC);
            return null;
        });
        // The rightful account is admitted (a pull that is not refused; nothing is consumed under the group).
        broker.pull(inventory, OrderMessaging.INVENTORY_GROUP, OrderMessaging.TOPIC);
    }

    /**
     * Health, metrics and the OpenAPI document answer on each service's management port only: the
     * API port, the one users reach, does not serve them.
     */
    @Test
    void healthMetricsAndOpenApiAreOnTheManagementPortOnly() {
        for (String service : suite.serviceNames()) {
            for (String path : List.of("/q/health/ready", "/q/metrics", "/q/openapi")) {
                assertThat(RestAssured.given().get(suite.managementUrl(service) + path).statusCode())
                        .as("%s %s on the management port", service, path).isEqualTo(200);
                assertThat(RestAssured.given().get(suite.url(service) + path).statusCode())
                        .as("%s %s on the API port", service, path).isEqualTo(404);
            }
        }
    }

    @Test
    void createdOrderIsCompletedWithEveryEffectAppliedOnce() {
        client.putStock("E2E-CREATE-A", 100);
        client.putStock("E2E-CREATE-B", 50);

        PlacedOrder order = client.placeOrder("E2E-C-CREATE",
                List.of(new Item("E2E-CREATE-A", 3, "12.75"), new Item("E2E-CREATE-B", 2, "0.60")));
        assertThat(order.amount()).isEqualByComparingTo("39.45");
        assertThat(order.statusUrl()).as("statusUrl points at this suite's status service")
                .isEqualTo(suite.url("status-service") + "/orders/" + order.orderId() + "/status");

        JsonPath status = client.awaitState(order, "COMPLETED", ORDER_TIMEOUT);
        assertThat(status.getString("orderId")).isEqualTo(order.orderId());
        assertThat(status.getMap("consumers")).containsExactlyInAnyOrderEntriesOf(
                Map.of("inventory", "DONE", "sms", "DONE", "points", "DONE"));
        assertThat(status.getString("createdAt")).isNotNull();
        assertThat(status.getString("completedAt")).isNotNull();
        assertThat(status.getString("failure")).isNull();

        assertThat(client.stock("E2E-CREATE-A")).isEqualTo(97);
        assertThat(client.stock("E2E-CREATE-B")).isEqualTo(48);
        assertThat(client.points("E2E-C-CREATE")).isEqualTo(39);
        // One confirmation, sent by the dispatcher (logging gateway in the prod profile).
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            List<Map<String, Object>> texts = client.sms(order.orderId());
            assertThat(texts).hasSize(1);
            assertThat(texts.get(0)).containsEntry("eventType", "create").containsEntry("status", "SENT")
                    .containsEntry("attempts", 1);
        });
        // order-service learned how it ended.
        await().atMost(ORDER_TIMEOUT).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            JsonPath atOrderService = client.order(order.orderId());
            assertThat(atOrderService.getString("status")).isEqualTo("COMPLETED");
            assertThat(atOrderService.getString("outcomeAt")).isNotNull();
            assertThat(atOrderService.getString("failure")).isNull();
        });
        // Still once a while later: no late duplicate from a redelivery.
        assertThat(client.stock("E2E-CREATE-A")).isEqualTo(97);
        assertThat(client.stock("E2E-CREATE-B")).isEqualTo(48);
        assertThat(client.points("E2E-C-CREATE")).isEqualTo(39);
        assertThat(client.sms(order.orderId())).hasSize(1);
    }

    @Test
    void cancelledOrderRestoresStockAndPointsAndTextsTheCustomer() {
        client.putStock("E2E-CANCEL-A", 10);
        client.putStock("E2E-CANCEL-B", 10);
        PlacedOrder order = client.placeOrder("E2E-C-CANCEL",
                List.of(new Item("E2E-CANCEL-A", 4, "20.00"), new Item("E2E-CANCEL-B", 1, "5.99")));
        client.awaitState(order, "COMPLETED", ORDER_TIMEOUT);
        assertThat(client.stock("E2E-CANCEL-A")).isEqualTo(6);
        assertThat(client.stock("E2E-CANCEL-B")).isEqualTo(9);
        assertThat(client.points("E2E-C-CANCEL")).isEqualTo(85);
        // The customer got the confirmation (sent once the order completed), then cancels.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                assertThat(client.sms(order.orderId())).extracting(t -> t.get("status")).containsExactly("SENT"));
        assertThat(client.order(order.orderId()).getString("status")).isEqualTo("COMPLETED");

        assertThat(client.cancel(order.orderId())).as("first cancel").isEqualTo(200);
        assertThat(client.cancel(order.orderId())).as("second cancel").isEqualTo(409);

        JsonPath status = client.awaitState(order, "CANCELLED", ORDER_TIMEOUT);
        assertThat(status.getMap("consumers")).as("the reversals of the cancel event").containsExactlyInAnyOrderEntriesOf(
                Map.of("inventory", "DONE", "sms", "DONE", "points", "DONE"));
        assertThat(status.getString("completedAt")).as("kept from the create").isNotNull();
        assertThat(status.getString("failure")).isNull();

        assertThat(client.stock("E2E-CANCEL-A")).isEqualTo(10);
        assertThat(client.stock("E2E-CANCEL-B")).isEqualTo(10);
        assertThat(client.points("E2E-C-CANCEL")).isZero();
        await().atMost(ORDER_TIMEOUT).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            JsonPath atOrderService = client.order(order.orderId());
            assertThat(atOrderService.getString("status")).isEqualTo("CANCELLED");
            assertThat(atOrderService.getString("outcomeAt")).as("every reversal done").isNotNull();
        });
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            List<Map<String, Object>> texts = client.sms(order.orderId());
            assertThat(texts).extracting(t -> t.get("eventType")).containsExactly("create", "cancel");
            assertThat(texts).extracting(t -> t.get("status")).containsExactly("SENT", "SENT");
        });
    }

    /**
     * Inventory refuses an order whose stock is short: the order is FAILED naming inventory and no
     * stock moves (not even for the line that had enough). The failure is compensated exactly once:
     * order-service records it and sends the fail event, points takes back what the create credited
     * (net 0), the confirmation is never sent and one text says the order could not be fulfilled;
     * every consumer's compensation shows DONE, and the failed order cannot be cancelled.
     */
    @Test
    void orderWithInsufficientStockFailsNamingInventoryAndIsCompensatedOnce() {
        client.putStock("E2E-SHORT-PLENTY", 100);
        client.putStock("E2E-SHORT-SCARCE", 1);
        PlacedOrder order = client.placeOrder("E2E-C-SHORT",
                List.of(new Item("E2E-SHORT-PLENTY", 1, "3.50"), new Item("E2E-SHORT-SCARCE", 5, "2.00")));

        JsonPath failed = client.awaitState(order, "FAILED", ORDER_TIMEOUT);
        assertThat(failed.getString("failure.consumer")).isEqualTo("inventory");
        assertThat(failed.getString("failure.class")).isEqualTo("business");
        assertThat(failed.getString("failure.reason")).contains("insufficient stock").contains("E2E-SHORT-SCARCE");
        assertThat(failed.getString("consumers.inventory")).isEqualTo("REJECTED");
        assertThat(failed.getString("completedAt")).isNull();

        // Every consumer compensated: the status shows each reversal DONE.
        JsonPath compensated = client.awaitStatus(order.statusUrl(), s -> s.getMap("compensation") != null
                && s.getMap("compensation").values().stream().allMatch("DONE"::equals), ORDER_TIMEOUT);
        assertThat(compensated.getString("state")).isEqualTo("FAILED");
        assertThat(compensated.getMap("compensation")).containsExactlyInAnyOrderEntriesOf(
                Map.of("inventory", "DONE", "sms", "DONE", "points", "DONE"));

        JsonPath atOrderService = client.order(order.orderId());
        assertThat(atOrderService.getString("status")).isEqualTo("FAILED");
        assertThat(atOrderService.getString("outcomeAt")).isNotNull();
        assertThat(atOrderService.getString("failure.consumer")).isEqualTo("inventory");
        assertThat(atOrderService.getString("failure.class")).isEqualTo("business");
        assertThat(atOrderService.getString("failure.reason")).contains("E2E-SHORT-SCARCE");

        assertThat(client.stock("E2E-SHORT-PLENTY")).as("no partial deduction").isEqualTo(100);
        assertThat(client.stock("E2E-SHORT-SCARCE")).isEqualTo(1);
        assertThat(client.points("E2E-C-SHORT")).as("credited, then taken back: net 0").isZero();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            List<Map<String, Object>> texts = client.sms(order.orderId());
            assertThat(texts).extracting(t -> t.get("eventType")).containsExactlyInAnyOrder("create", "fail");
            assertThat(texts).filteredOn(t -> "create".equals(t.get("eventType"))).extracting(t -> t.get("status"))
                    .as("the confirmation is never sent").containsExactly("WITHDRAWN");
            assertThat(texts).filteredOn(t -> "fail".equals(t.get("eventType"))).extracting(t -> t.get("status"))
                    .as("one text: could not be fulfilled").containsExactly("SENT");
        });

        Response cancel = client.cancelResponse(order.orderId());
        assertThat(cancel.statusCode()).isEqualTo(409);
        assertThat(cancel.contentType()).startsWith("application/problem+json");
        assertThat(cancel.jsonPath().getString("type")).endsWith("order-failed");
        assertThat(cancel.jsonPath().getString("detail")).contains("insufficient stock");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void twoHundredOrdersFromEightClientsAllCompleteAndTheSumsMatch() throws Exception {
        int clients = 8;
        int ordersPerClient = 25;
        long initialStock = 100_000;
        List<String> skus = List.of("E2E-LOAD-1", "E2E-LOAD-2", "E2E-LOAD-3", "E2E-LOAD-4");
        List<String> customers = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            customers.add("E2E-C-LOAD-" + i);
        }
        skus.forEach(sku -> client.putStock(sku, initialStock));
        long seed = System.nanoTime();
        System.out.println("e2e: load seed " + seed);

        long startedAt = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<List<PlacedOrder>>> results = new ArrayList<>();
        try {
            for (int c = 0; c < clients; c++) {
                Random random = new Random(seed + c);
                results.add(pool.submit(() -> {
                    List<PlacedOrder> placed = new ArrayList<>();
                    for (int i = 0; i < ordersPerClient; i++) {
                        placed.add(client.placeOrder(customers.get(random.nextInt(customers.size())),
                                randomItems(random, skus)));
                    }
                    System.out.printf("e2e: client placed %d orders in %.1f s%n", placed.size(),
                            (System.nanoTime() - startedAt) / 1e9);
                    for (PlacedOrder order : placed) {
                        JsonPath status = client.awaitState(order, "COMPLETED", ORDER_TIMEOUT);
                        assertThat(status.getMap("consumers")).as("order %s", order.orderId())
                                .containsExactlyInAnyOrderEntriesOf(Map.of("inventory", "DONE", "sms", "DONE", "points", "DONE"));
                    }
                    return placed;
                }));
            }
            List<PlacedOrder> all = new ArrayList<>();
            for (Future<List<PlacedOrder>> result : results) {
                all.addAll(result.get(4, TimeUnit.MINUTES));
            }
            double seconds = (System.nanoTime() - startedAt) / 1e9;
            System.out.printf("e2e: %d orders from %d clients placed and COMPLETED in %.1f s%n", all.size(), clients,
                    seconds);
            System.out.println("e2e: status summary " + client.statusSummary());
            assertThat(all).hasSize(clients * ordersPerClient);
            assertThat(all).extracting(PlacedOrder::orderId).doesNotHaveDuplicates();
            assertThat(seconds).as("200 orders end to end, bounded").isLessThan(180);

            Map<String, Long> expectedStock = new LinkedHashMap<>();
            skus.forEach(sku -> expectedStock.put(sku, initialStock));
            Map<String, Long> expectedPoints = new HashMap<>();
            customers.forEach(customer -> expectedPoints.put(customer, 0L));
            for (PlacedOrder order : all) {
                order.items().forEach(item -> expectedStock.merge(item.sku(), (long) -item.quantity(), Long::sum));
                expectedPoints.merge(order.customerId(), order.points(), Long::sum);
            }
            Map<String, Long> actualStock = new LinkedHashMap<>();
            skus.forEach(sku -> actualStock.put(sku, client.stock(sku)));
            Map<String, Long> actualPoints = new HashMap<>();
            customers.forEach(customer -> actualPoints.put(customer, client.points(customer)));
            assertThat(actualStock).as("stock = start - sum of quantities").isEqualTo(expectedStock);
            assertThat(actualPoints).as("points = sum of floor(amount) per customer").isEqualTo(expectedPoints);

            // One confirmation text per order (recorded; the dispatcher sends it).
            for (PlacedOrder order : all) {
                assertThat(client.sms(order.orderId())).as("texts of %s", order.orderId())
                        .extracting(t -> t.get("eventType")).containsExactly("create");
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("load clients stopped").isTrue();
        }
    }

    /**
     * status-service's reconciliation reads the other four services through their ledger APIs, with
     * the service token it gets from the suite's token endpoint: a completed order is checked and has
     * no finding (with no settle time, an effect a ledger did not return would be a missing effect),
     * and a stock movement written straight into inventory's database for an order that does not exist
     * is found, named by inventory.
     */
    @Test
    void reconciliationReadsEveryServicesLedgerAndFindsAnEffectWithoutOrder() throws Exception {
        Instant from = Instant.now().minus(Duration.ofMinutes(5));
        client.putStock("E2E-RECON-1", 100);
        PlacedOrder order = client.placeOrder("E2E-C-RECON", List.of(new Item("E2E-RECON-1", 2, "4.50")));
        client.awaitState(order, "COMPLETED", ORDER_TIMEOUT);
        String stray = "E2E-STRAY-" + System.nanoTime();
        try (Connection inventory = suite.connect("inventory-service");
                PreparedStatement insert = inventory.prepareStatement("insert into stock_movement"
                        + " (order_id, sku, kind, quantity, created_at) values (?, 'E2E-RECON-1', 'DEDUCT', 1, ?)")) {
            insert.setString(1, stray);
            insert.setObject(2, LocalDateTime.now(ZoneOffset.UTC));
            insert.executeUpdate();
        }

        JsonPath report = RestAssured.given().auth().oauth2(suite.tokens().user("e2e-operator", "operator"))
                .queryParam("from", from.toString())
                .queryParam("to", Instant.now().plus(Duration.ofMinutes(1)).toString())
                .post(suite.url("status-service") + "/admin/reconciliation")
                .then().statusCode(200).extract().jsonPath();

        assertThat(report.getInt("ordersChecked")).isGreaterThanOrEqualTo(1);
        assertThat(report.getList("findings.orderId", String.class)).doesNotContain(order.orderId()).contains(stray);
        assertThat(report.getString("findings.find { it.orderId == '" + stray + "' }.kind"))
                .isEqualTo("effect-without-order");
        assertThat(report.getString("findings.find { it.orderId == '" + stray + "' }.consumer")).isEqualTo("inventory");
        assertThat(report.getInt("counts.duplicate-effect")).isZero();
        assertThat(report.getInt("counts.wrong-amount")).isZero();
    }

    /** One to three lines of distinct SKUs, quantity 1-5, unit price 0.01-99.99. */
    private static List<Item> randomItems(Random random, List<String> skus) {
        List<String> shuffled = new ArrayList<>(skus);
        java.util.Collections.shuffle(shuffled, random);
        int lines = 1 + random.nextInt(3);
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            int cents = 1 + random.nextInt(9_999);
            items.add(new Item(shuffled.get(i), 1 + random.nextInt(5), String.format("%d.%02d", cents / 100, cents % 100)));
        }
        return items;
    }
}
