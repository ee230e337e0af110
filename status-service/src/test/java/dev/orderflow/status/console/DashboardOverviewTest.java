package dev.orderflow.status.console;

import static dev.orderflow.status.console.ConsoleClient.VIEWER;
import static dev.orderflow.status.console.ConsoleClient.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.status.StatusBroker;
import dev.orderflow.status.StatusClient;
import dev.orderflow.status.StatusTopics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The dashboard's overview, orders table, lag and charts in headless Chromium ({@link HeadlessChromium}), logged
 * in as a viewer, over a mix of orders: completed, failed (a rejection), cancelled and one dead-lettered. With
 * {@code -Dorderflow.dashboard.screenshot=<png>} it also saves a screenshot of the page there (docs/dashboard.png),
 * and one of the failed order's view beside it (docs/dashboard-order.png).
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class DashboardOverviewTest {

    private static final Duration UI = Duration.ofSeconds(30);
    private static final List<String> STATES = List.of("PENDING", "ATTENTION", "FAILED", "COMPLETED", "CANCELLED");
    private static final List<String> CONSUMERS = List.of("inventory", "sms", "points");

    @RegisterExtension
    static final HeadlessChromium CHROMIUM = new HeadlessChromium();

    private static WebDriver browser;
    private static Mix mix;

    @TestHTTPResource("/dashboard/")
    URL dashboard;

    /** One order of each kind (ids), and enough completed ones for a second page of ten. */
    record Mix(String completed, String failed, String cancelled, String deadLettered) {
        List<String> all() {
            return List.of(completed, failed, cancelled, deadLettered);
        }
    }

    @BeforeAll
    static void openTheBrowser() {
        browser = CHROMIUM.driver();
    }

    @BeforeEach
    void openThePageAsAViewer() {
        if (mix == null) {
            mix = placeTheMix(); // here, not in @BeforeAll: the API's port is set for each test
        }
        browser.manage().window().setSize(new Dimension(1280, 800));
        browser.get(dashboard.toString());
        await().atMost(UI).until(() -> browser.findElement(By.id("login-token")).isDisplayed());
        browser.findElement(By.id("login-token")).sendKeys(ConsoleClient.token(VIEWER));
        browser.findElement(By.id("login-button")).click();
        await().atMost(UI).until(() -> browser.findElement(By.id("login-status")).getText().equals("logged in as " + VIEWER));
    }

    private static Mix placeTheMix() {
        for (int i = 0; i < 11; i++) {
            String orderId = StatusClient.newOrderId();
            StatusBroker.sendCreate(orderId);
            StatusClient.allDone(orderId, OrderEventType.CREATE);
        }
        String completed = StatusClient.newOrderId();
        StatusBroker.sendCreate(completed);
        StatusClient.allDone(completed, OrderEventType.CREATE);

        String failed = StatusClient.newOrderId();
        StatusBroker.sendCreate(failed);
        StatusBroker.done(failed, OrderEventType.CREATE, "sms");
        StatusBroker.done(failed, OrderEventType.CREATE, "points");
        StatusBroker.send(ConsumerReport.rejected(failed, OrderEventType.CREATE, "inventory",
                "insufficient stock for SKU-1: 2 requested, 1 available", Instant.now()));

        String cancelled = StatusClient.newOrderId();
        StatusBroker.sendCreate(cancelled);
        StatusClient.allDone(cancelled, OrderEventType.CREATE);
        StatusBroker.sendCancel(cancelled);
        StatusClient.allDone(cancelled, OrderEventType.CANCEL);

        String deadLettered = StatusClient.newOrderId();
        StatusBroker.sendCreate(deadLettered);
        StatusBroker.done(deadLettered, OrderEventType.CREATE, "inventory");
        StatusBroker.done(deadLettered, OrderEventType.CREATE, "sms");
        StatusBroker.deadLetter(OrderMessaging.POINTS_GROUP, deadLettered, "system", "points ledger locked");

        StatusClient.awaitState(completed, "COMPLETED");
        StatusClient.awaitState(failed, "FAILED");
        StatusClient.awaitState(cancelled, "CANCELLED");
        StatusClient.awaitState(deadLettered, "ATTENTION");
        return new Mix(completed, failed, cancelled, deadLettered);
    }

    @Test
    void everyFlagAndTheFailureLieUnderTheirOwnColumnHeaders() {
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            for (String orderId : mix.all()) {
                WebElement row = browser.findElement(By.cssSelector("#orders-table tr[data-order-id='" + orderId + "']"));
                for (String consumer : CONSUMERS) {
                    WebElement cell = row.findElement(By.cssSelector("td[data-consumer='" + consumer + "']"));
                    assertUnder(cell, header("consumer-" + consumer), orderId + " " + consumer);
                    assertThat(cell.getText()).as("%s %s in words", orderId, consumer)
                            .isIn("DONE", "PENDING", "REJECTED", "DEAD_LETTERED");
                }
                for (String column : List.of("order", "state", "created", "failure", "compensation")) {
                    assertUnder(row.findElement(By.cssSelector("td[data-column='" + column + "']")), header(column),
                            orderId + " " + column);
                }
            }
            WebElement failed = row(mix.failed());
            assertThat(failed.findElement(By.cssSelector("td[data-consumer='inventory']")).getText()).isEqualTo("REJECTED");
            assertThat(failed.findElement(By.cssSelector("td[data-column='failure']")).getText())
                    .isEqualTo("inventory business: insufficient stock for SKU-1: 2 requested, 1 available");
            assertThat(failed.findElement(By.cssSelector("td[data-column='state']")).getText()).isEqualTo("FAILED");
            WebElement deadLettered = row(mix.deadLettered());
            assertThat(deadLettered.findElement(By.cssSelector("td[data-consumer='points']")).getText())
                    .isEqualTo("DEAD_LETTERED");
            assertThat(deadLettered.findElement(By.cssSelector("td[data-column='state']")).getText()).isEqualTo("ATTENTION");
            assertThat(row(mix.cancelled()).findElement(By.cssSelector("td[data-column='state']")).getText())
                    .isEqualTo("CANCELLED");
            assertThat(row(mix.completed()).findElement(By.cssSelector("td[data-column='failure']")).getText())
                    .isEqualTo("none");
        });
    }

    @Test
    void theOrdersFilterByStateFindAnOrderByIdAndPage() {
        await().atMost(UI).until(() -> !browser.findElements(By.cssSelector("#orders-table tr[data-order-id]")).isEmpty());
        new Select(browser.findElement(By.id("orders-state"))).selectByValue("FAILED");
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            List<WebElement> rows = browser.findElements(By.cssSelector("#orders-table tbody tr"));
            assertThat(rows).isNotEmpty().allSatisfy(r -> assertThat(
                    r.findElement(By.cssSelector("td[data-column='state']")).getText()).isEqualTo("FAILED"));
            assertThat(rows).anyMatch(r -> mix.failed().equals(r.getAttribute("data-order-id")));
        });

        new Select(browser.findElement(By.id("orders-state"))).selectByValue("COMPLETED");
        new Select(browser.findElement(By.id("orders-size"))).selectByValue("10");
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElements(By.cssSelector("#orders-table tbody tr"))).hasSize(10);
            assertThat(browser.findElement(By.id("orders-page")).getText()).startsWith("page 1: orders 1–10 of ");
        });
        List<String> firstPage = orderIds();
        browser.findElement(By.id("orders-next")).click();
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElement(By.id("orders-page")).getText()).startsWith("page 2: orders 11–");
            assertThat(orderIds()).isNotEmpty().doesNotContainAnyElementsOf(firstPage);
        });
        browser.findElement(By.id("orders-prev")).click();
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> assertThat(orderIds()).isEqualTo(firstPage));

        browser.findElement(By.id("orders-search")).sendKeys(mix.cancelled());
        browser.findElement(By.id("orders-search-button")).click();
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> assertThat(orderIds()).containsExactly(mix.cancelled()));
        browser.findElement(By.id("orders-search")).clear();
        browser.findElement(By.id("orders-search")).sendKeys("NO-SUCH-ORDER");
        browser.findElement(By.id("orders-search-button")).click();
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(orderIds()).isEmpty();
            assertThat(browser.findElement(By.id("orders-message")).getText()).startsWith("no order NO-SUCH-ORDER");
        });
    }

    @Test
    void theOverviewShowsWhatTheSummaryAndTheLagSayAndLinksToTheDetails() {
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            Map<String, Object> counts = as(VIEWER).get("/status/summary").then().statusCode(200).extract().jsonPath()
                    .getMap("counts");
            for (String state : STATES) {
                WebElement figure = browser.findElement(By.cssSelector("a[data-overview-state='" + state + "']"));
                assertThat(figure.findElement(By.className("figure-value")).getText()).as(state)
                        .isEqualTo(String.valueOf(counts.get(state)));
                assertThat(figure.getText()).contains(state);
                assertThat(figure.getAttribute("href")).endsWith("#orders");
            }
        });
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElement(By.cssSelector("a[data-overview-latency='p50']")).getText()).endsWith("p50");
            assertThat(browser.findElement(By.cssSelector("a[data-overview-latency='p99']")).getAttribute("href"))
                    .endsWith("#latency");
            List<String> groups = as(VIEWER).get("/lag").then().statusCode(200).extract().jsonPath()
                    .getList("groups.group", String.class);
            for (String group : groups) {
                WebElement row = browser.findElement(By.cssSelector("#overview-groups-table tr[data-group='" + group + "']"));
                assertThat(row.findElement(By.cssSelector("td[data-figure='dlq'] a")).getAttribute("href")).endsWith("#dlq");
                assertThat(row.findElement(By.cssSelector("td[data-figure='oldest'] a")).getAttribute("href")).endsWith("#lag");
                assertThat(row.findElement(By.cssSelector("td[data-figure='oldest']")).getText())
                        .matches("no message waiting|[0-9.]+ s|\\d+ min \\d+ s|\\d+ h \\d+ min");
            }
        });
        // Orders created in the last 5 min and hour (GET /status/overview): the mix was placed minutes ago at most.
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            for (String window : List.of("PT5M", "PT1H")) {
                WebElement row = browser.findElement(By.cssSelector("#overview-windows-table tr[data-window='" + window + "']"));
                for (String state : List.of("COMPLETED", "FAILED", "CANCELLED", "ATTENTION")) {
                    assertThat(Integer.parseInt(row.findElement(By.cssSelector("td[data-state='" + state + "']")).getText()))
                            .as("%s %s", window, state).isPositive();
                }
                assertThat(row.findElement(By.cssSelector("td[data-figure='completed'] a")).getAttribute("href"))
                        .endsWith("#latency");
            }
        });
        // A figure leads to its section: the state's orders.
        browser.findElement(By.cssSelector("a[data-overview-state='CANCELLED']")).click();
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(new Select(browser.findElement(By.id("orders-state"))).getFirstSelectedOption().getText())
                    .isEqualTo("CANCELLED");
            assertThat(orderIds()).contains(mix.cancelled());
        });
    }

    @Test
    void everyChartHasAxisLabelsTimeLabelsAndALegendAndNoFigureSaysNullOrUndefined() {
        // Two summary samples (5 s apart) draw the completions per second.
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(DashboardCharts.linesWithPoints(browser, "throughput-chart")).containsExactly("completed per second");
            assertThat(DashboardCharts.linesWithPoints(browser, "latency-chart")).contains("p50", "p99");
            assertThat(DashboardCharts.linesWithPoints(browser, "lag-chart")).contains(OrderMessaging.INVENTORY_GROUP);
        });
        Map<String, String> yAxes = Map.of("lag-chart", "messages behind", "throughput-chart", "orders / s",
                "latency-chart", "latency (ms)");
        yAxes.forEach((chart, yLabel) -> {
            assertThat(DashboardCharts.axisLabels(browser, chart)).as(chart).containsExactly("time (UTC)", yLabel);
            assertThat(DashboardCharts.timeTicks(browser, chart)).as("time labels of %s", chart).isNotEmpty()
                    .allMatch(tick -> tick.matches("\\d{2}:\\d{2}:\\d{2}"));
            List<String> legend = browser.findElements(By.cssSelector("#" + chart + " .u-legend .u-series .u-label"))
                    .stream().map(WebElement::getText).toList();
            assertThat(legend).as("legend of %s: an entry per line", chart)
                    .containsAll(DashboardCharts.linesWithPoints(browser, chart)).doesNotHaveDuplicates();
        });
        assertThat(browser.findElements(By.cssSelector("#lag-chart .u-legend .u-series .u-label")).stream()
                .map(WebElement::getText)).contains(OrderMessaging.INVENTORY_GROUP, OrderMessaging.SMS_GROUP,
                        OrderMessaging.POINTS_GROUP);
        for (String section : List.of("overview", "orders", "lag", "latency")) {
            assertThat(browser.findElement(By.id(section)).getText()).as(section)
                    .doesNotContainPattern("\\bnull\\b|\\bundefined\\b|\\bNaN\\b");
        }
    }

    @Test
    void anOrdersViewShowsEachConsumersFlagPerEventAndWhenTheOrderReachedEachState() {
        await().atMost(UI).ignoreExceptions().until(() -> row(mix.failed()).isDisplayed());
        row(mix.failed()).findElement(By.cssSelector("td[data-column='order'] a")).click();
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElement(By.id("order-detail")).isDisplayed()).isTrue();
            assertThat(browser.findElement(By.id("order-detail-id")).getText()).isEqualTo(mix.failed());
            assertThat(detailHeaders()).containsExactly("consumer", "create", "compensation");
            for (String consumer : CONSUMERS) {
                for (String event : List.of("create", "compensation")) {
                    assertUnder(flag(consumer, event), browser.findElement(By.cssSelector(
                            "#order-detail-flags thead th[data-column='event-" + event + "']")), consumer + " " + event);
                }
                assertThat(flag(consumer, "compensation").getText()).isEqualTo("PENDING: nothing heard yet");
            }
            assertThat(flag("inventory", "create").getText()).matches("REJECTED at \\S+Z \\(reported\\): business "
                    + "insufficient stock for SKU-1: 2 requested, 1 available");
            assertThat(flag("sms", "create").getText()).matches("DONE at \\S+Z \\(reported\\)");
            assertThat(milestone("createdAt")).matches("\\d{4}-\\d{2}-\\d{2}T\\S+Z");
            assertThat(milestone("failedAt")).matches("\\d{4}-\\d{2}-\\d{2}T\\S+Z");
            assertThat(milestone("completedAt")).isEqualTo("not reached");
            assertThat(browser.findElement(By.id("order-detail")).getText())
                    .doesNotContainPattern("\\bnull\\b|\\bundefined\\b|\\bNaN\\b");
        });

        browser.get(dashboard + "#order/" + mix.cancelled());
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElement(By.id("order-detail-id")).getText()).isEqualTo(mix.cancelled());
            assertThat(detailHeaders()).containsExactly("consumer", "create", "cancel");
            assertThat(flag("points", "cancel").getText()).startsWith("DONE at ");
            assertThat(milestone("cancelledAt")).matches("\\d{4}-\\d{2}-\\d{2}T\\S+Z");
        });
        browser.get(dashboard + "#order/" + mix.deadLettered());
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> assertThat(flag("points", "create").getText())
                .matches("DEAD_LETTERED at \\S+Z \\(from the dead-letter queue\\): system points ledger locked"));

        browser.findElement(By.id("order-detail-close")).click();
        await().atMost(UI).until(() -> !browser.findElement(By.id("order-detail")).isDisplayed());
    }

    @Test
    void everyControlIsReachableWithTheKeyboardAndEnterOpensAnOrder() {
        await().atMost(UI).ignoreExceptions().until(() -> row(mix.failed()).isDisplayed()
                && !browser.findElements(By.cssSelector("a[data-overview-state]")).isEmpty());
        String failedLink = "#order/" + mix.failed();
        List<String> reached = new ArrayList<>();
        Actions keyboard = new Actions(browser);
        for (int i = 0; i < 300 && !reached.contains(failedLink); i++) {
            keyboard.sendKeys(Keys.TAB).perform();
            reached.add((String) ((JavascriptExecutor) browser).executeScript("const e = document.activeElement;"
                    + " return e.id || (e.getAttribute('href') || '') + (e.dataset.overviewState || '');"));
        }
        assertThat(reached).as("focus order from the top").contains("logout-button", "#ordersCOMPLETED", "#ordersFAILED",
                "#latency", "#lag", "#dlq", "orders-state", "orders-search", "orders-search-button", "orders-size",
                failedLink);
        assertThat((Boolean) ((JavascriptExecutor) browser).executeScript(
                "return [...document.querySelectorAll('[tabindex]')].every(e => e.tabIndex <= 0)"))
                .as("no element jumps the reading order (positive tabindex)").isTrue();

        keyboard.sendKeys(Keys.ENTER).perform();
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElement(By.id("order-detail-id")).getText()).isEqualTo(mix.failed());
            assertThat(browser.switchTo().activeElement().getAttribute("id")).as("focus moves to the order")
                    .isEqualTo("order-detail-heading");
            assertThat(detailHeaders()).contains("create", "compensation");
        });
    }

    /**
     * What an operator reads when a call fails: the page's calls are answered in the browser as status-service
     * answers /lag before any lag sample (503 lag-not-measured), and as a network without status-service for the
     * summary.
     */
    @Test
    void failedCallsAreSaidInWords() {
        await().atMost(UI).ignoreExceptions().until(() -> !browser.findElements(By.cssSelector("a[data-overview-state]")).isEmpty());
        ((JavascriptExecutor) browser).executeScript("const real = window.fetch;"
                + " window.fetch = (input, init) => {"
                + "   const url = String(input);"
                + "   if (url.startsWith('/lag')) return Promise.resolve(new Response(JSON.stringify({type: 'urn:problem-type:lag-not-measured',"
                + "     title: 'Lag not measured yet', status: 503, detail: 'No consumer-lag sample has succeeded yet'}),"
                + "     {status: 503, headers: {'Content-Type': 'application/problem+json'}}));"
                + "   if (url.startsWith('/status/summary')) return Promise.reject(new TypeError('Failed to fetch'));"
                + "   return real(input, init); };");
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElement(By.id("lag-message")).getText()).isEqualTo(
                    "status-service cannot reach the broker: no lag measured yet (it asks again every few seconds)");
            assertThat(browser.findElement(By.id("overview-message")).getText())
                    .isEqualTo("the summary not available: status-service cannot be reached");
            assertThat(browser.findElements(By.cssSelector("#lag-table tbody tr"))).isEmpty();
        });
        for (String section : List.of("overview", "orders", "lag", "latency")) {
            assertThat(browser.findElement(By.id(section)).getText()).as(section)
                    .doesNotContainPattern("\\bnull\\b|\\bundefined\\b|\\bNaN\\b");
        }
    }

    @Test
    void theOverviewNeedsNoHorizontalScrollingAtANarrowWindow() {
        browser.manage().window().setSize(new Dimension(800, 800));
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(browser.findElements(By.cssSelector("#overview-groups-table tr[data-group]"))).isNotEmpty();
            assertThat(browser.findElements(By.cssSelector("a[data-overview-state]"))).hasSize(STATES.size());
            Map<String, Object> widths = widths();
            assertThat(((Number) widths.get("page")).longValue()).as("page %s", widths)
                    .isLessThanOrEqualTo(((Number) widths.get("window")).longValue());
            assertThat(((Number) widths.get("overview")).longValue()).as("overview %s", widths)
                    .isLessThanOrEqualTo(((Number) widths.get("overviewBox")).longValue());
            assertThat(((Number) widths.get("overviewRight")).longValue()).as("overview %s", widths)
                    .isLessThanOrEqualTo(((Number) widths.get("window")).longValue());
        });
    }

    /** Saves the page, all of it, as a PNG where -Dorderflow.dashboard.screenshot says (docs/dashboard.png). */
    @Test
    void screenshotWhenAsked() throws IOException {
        String target = System.getProperty("orderflow.dashboard.screenshot");
        if (target == null || target.isBlank()) {
            return;
        }
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            assertThat(orderIds()).contains(mix.deadLettered());
            assertThat(DashboardCharts.linesWithPoints(browser, "throughput-chart")).isNotEmpty();
            assertThat(((Number) ((JavascriptExecutor) browser).executeScript(
                    "return window.dashboardCharts['throughput-chart'].plot.data[0].length")).intValue()).isGreaterThanOrEqualTo(4);
        });
        long height = ((Number) ((JavascriptExecutor) browser).executeScript(
                "return document.documentElement.scrollHeight")).longValue();
        browser.manage().window().setSize(new Dimension(1280, (int) Math.min(4000, height + 40)));
        await().pollDelay(Duration.ofSeconds(1)).atMost(UI).until(() -> true);
        Path png = Path.of(target).toAbsolutePath();
        Files.createDirectories(png.getParent());
        Files.write(png, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

        // The failed order's view, beside it: <name>-order.png.
        browser.manage().window().setSize(new Dimension(1280, 800));
        browser.get(dashboard + "#order/" + mix.failed());
        await().atMost(UI).ignoreExceptions().until(() -> flag("inventory", "create").getText().startsWith("REJECTED"));
        Files.write(png.resolveSibling(png.getFileName().toString().replaceFirst("\\.png$", "") + "-order.png"),
                ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> widths() {
        return (Map<String, Object>) ((JavascriptExecutor) browser).executeScript("const o = document.getElementById('overview');"
                + " return {page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth,"
                + " overview: o.scrollWidth, overviewBox: o.clientWidth, overviewRight: Math.ceil(o.getBoundingClientRect().right)};");
    }

    private static List<String> detailHeaders() {
        return browser.findElements(By.cssSelector("#order-detail-flags thead th")).stream().map(WebElement::getText).toList();
    }

    private static WebElement flag(String consumer, String event) {
        return browser.findElement(By.cssSelector("#order-detail-flags tr[data-consumer='" + consumer + "'] td[data-event='"
                + event + "']"));
    }

    private static String milestone(String name) {
        return browser.findElement(By.cssSelector("#order-detail-milestones tr[data-milestone='" + name + "'] td")).getText();
    }

    private static WebElement row(String orderId) {
        return browser.findElement(By.cssSelector("#orders-table tr[data-order-id='" + orderId + "']"));
    }

    private static WebElement header(String column) {
        return browser.findElement(By.cssSelector("#orders-table thead th[data-column='" + column + "']"));
    }

    private static List<String> orderIds() {
        List<String> ids = new ArrayList<>();
        browser.findElements(By.cssSelector("#orders-table tbody tr[data-order-id]"))
                .forEach(r -> ids.add(r.getAttribute("data-order-id")));
        return ids;
    }

    /** The cell spans exactly its header's columns: same left and right edge (to a pixel), and lies below it. */
    private static void assertUnder(WebElement cell, WebElement header, String what) {
        Rectangle c = cell.getRect();
        Rectangle h = header.getRect();
        assertThat(Math.abs(c.getX() - h.getX())).as("%s: left edge of cell %s and header %s", what, c, h).isLessThanOrEqualTo(1);
        assertThat(Math.abs((c.getX() + c.getWidth()) - (h.getX() + h.getWidth())))
                .as("%s: right edge of cell %s and header %s", what, c, h).isLessThanOrEqualTo(1);
        assertThat(c.getY()).as("%s below its header", what).isGreaterThanOrEqualTo(h.getY() + h.getHeight() - 1);
    }
}
