package dev.orderflow.status.console;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static dev.orderflow.status.console.ConsoleClient.APPROVER;
import static dev.orderflow.status.console.ConsoleClient.OPERATOR;
import static dev.orderflow.status.console.ConsoleClient.VIEWER;
import static dev.orderflow.status.console.ConsoleClient.as;
import static dev.orderflow.status.console.ConsoleClient.awaitEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.status.StatusBroker;
import dev.orderflow.status.StatusClient;
import dev.orderflow.status.StatusTopics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The dashboard in a real headless Chromium ({@link HeadlessChromium}) against the running status
 * service, real in-process RocketMQ (Dev Services) and real MariaDB, logged in with pasted tokens:
 * the page shows an order placed through the service's inputs, and an operator requests a re-drive,
 * or an abandon, that a different approver approves, all through the page.
 */
@QuarkusTest
@WithTestResource(StatusTopics.class)
class DashboardBrowserTest {

    private static final Duration UI = Duration.ofSeconds(20);

    @RegisterExtension
    static final HeadlessChromium CHROMIUM = new HeadlessChromium();

    private static WebDriver browser;

    @TestHTTPResource("/dashboard/")
    URL dashboard;

    @BeforeAll
    static void openTheBrowser() {
        browser = CHROMIUM.driver();
    }

    @Test
    void showsAPlacedOrderAndAnOperatorAndAnotherApproverRedriveThroughThePage() {
        String orderId = DlqConsoleTest.newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.deadLetter(OrderMessaging.INVENTORY_GROUP, orderId, "system", "connection refused");
        String key = OrderMessaging.messageKey(orderId, OrderEventType.CREATE);
        String dlqMessageId = (String) awaitEntry("inventory", key).get("dlqMessageId");

        browser.get(dashboard.toString());
        // Nothing without a token.
        await().atMost(UI).until(() -> browser.findElement(By.id("orders-message")).getText().contains("log in"));
        assertThat(browser.findElements(By.cssSelector("tr[data-order-id]"))).isEmpty();
        logIn(VIEWER);
        // The order's row, with its per-consumer flags as colours (refreshed every 5 s).
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            WebElement row = browser.findElement(By.cssSelector("tr[data-order-id='" + orderId + "']"));
            assertThat(row.findElement(By.cssSelector("td[data-consumer='sms']")).getAttribute("class"))
                    .contains("state-DONE");
            assertThat(row.findElement(By.cssSelector("td[data-consumer='inventory']")).getAttribute("class"))
                    .contains("state-DEAD_LETTERED");
            assertThat(row.findElement(By.cssSelector("span.state-ATTENTION")).getText()).isEqualTo("ATTENTION");
        });
        // The lag chart: one line and one legend entry per group GET /lag measures (sampled every second in tests).
        List<String> groups = await().atMost(UI).until(() -> given().get("/lag").then().extract(), r -> r.statusCode() == 200)
                .jsonPath().getList("groups.group", String.class);
        assertThat(groups).contains(OrderMessaging.INVENTORY_GROUP, OrderMessaging.SMS_GROUP, OrderMessaging.POINTS_GROUP);
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            WebElement chart = browser.findElement(By.cssSelector("#lag-chart .uplot"));
            for (String group : groups) {
                assertThat(DashboardCharts.linesWithPoints(browser, "lag-chart")).as("line of %s", group)
                        .containsOnlyOnce(group);
                assertThat(chart.findElements(By.cssSelector(".u-legend .u-series .u-label"))).as("legend of %s", group)
                        .filteredOn(label -> label.getText().equals(group)).hasSize(1);
                assertThat(browser.findElement(By.cssSelector("#lag-table tr[data-group='" + group + "']")).getText())
                        .as("figures of %s", group).startsWith(group + " ");
            }
            assertThat(browser.findElement(By.id("lag-message")).getText()).doesNotContain("not available");
        });
        browser.findElement(By.id("logout-button")).click();

        logIn(OPERATOR);
        long requestId = requestThroughTheConsole("inventory", dlqMessageId, "database is back", "request-redrive");
        WebElement pending = browser.findElement(By.cssSelector("tr[data-request-id='" + requestId + "']"));
        assertThat(pending.findElement(By.className("request-status")).getText()).isEqualTo("PENDING_APPROVAL");
        browser.findElement(By.id("logout-button")).click();

        logIn(APPROVER);
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> browser
                .findElement(By.cssSelector("tr[data-request-id='" + requestId + "'] button.approve")).click());
        await().atMost(UI).ignoreExceptions().until(() -> browser
                .findElement(By.cssSelector("tr[data-request-id='" + requestId + "'] .request-status")).getText()
                .equals("SENT"));

        Map<String, Object> sent = as(VIEWER).queryParam("status", "SENT").get("/admin/redrive-requests").then()
                .statusCode(200).extract().jsonPath().getMap("find { it.id == " + requestId + " }");
        assertThat(sent).containsEntry("requestedBy", OPERATOR).containsEntry("approvedBy", APPROVER)
                .containsEntry("dlqMessageId", dlqMessageId).containsEntry("comment", "database is back");
        assertThat((String) sent.get("sentMessageId")).isNotBlank();
    }

    @Test
    void anOperatorAndAnotherApproverAbandonAnOrderThroughThePageAndItShowsItsCompensation() {
        String orderId = DlqConsoleTest.newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "inventory");
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.deadLetter(OrderMessaging.POINTS_GROUP, orderId, "system", "points ledger locked");
        String key = OrderMessaging.messageKey(orderId, OrderEventType.CREATE);
        String dlqMessageId = (String) awaitEntry("points", key).get("dlqMessageId");
        StatusClient.awaitState(orderId, "ATTENTION");

        browser.get(dashboard.toString());
        logIn(OPERATOR);
        long requestId = requestThroughTheConsole("points", dlqMessageId, "customer asked to drop it", "request-abandon");
        await().atMost(UI).ignoreExceptions().until(() -> browser
                .findElement(By.cssSelector("tr[data-request-id='" + requestId + "'] .request-action")).getText()
                .equals("ABANDON"));
        browser.findElement(By.id("logout-button")).click();

        logIn(APPROVER);
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> browser
                .findElement(By.cssSelector("tr[data-request-id='" + requestId + "'] button.approve")).click());
        await().atMost(UI).ignoreExceptions().until(() -> browser
                .findElement(By.cssSelector("tr[data-request-id='" + requestId + "'] .request-status")).getText()
                .equals("ABANDONED"));

        // The order's row: FAILED, why, and each consumer's compensation still to run.
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            WebElement row = browser.findElement(By.cssSelector("tr[data-order-id='" + orderId + "']"));
            assertThat(row.findElement(By.cssSelector("span.state-FAILED")).getText()).isEqualTo("FAILED");
            assertThat(row.getText()).contains("points system: abandoned by bert: customer asked to drop it");
            assertThat(row.findElement(By.className("compensation")).getText())
                    .isEqualTo("inventory PENDING, sms PENDING, points PENDING");
        });
    }

    /**
     * Opens the consumer's console, selects the entry, writes the comment and presses the button;
     * returns the id of the request it made, once the page says it waits for approval.
     */
    private static long requestThroughTheConsole(String consumer, String dlqMessageId, String comment, String button) {
        // The DLQ table loads after the login answer: wait for its link into the console.
        await().atMost(UI).ignoreExceptions().untilAsserted(
                () -> browser.findElement(By.cssSelector("a[data-dlq-consumer='" + consumer + "']")).click());
        WebElement entry = await().atMost(UI).ignoreExceptions().until(
                () -> browser.findElement(By.cssSelector("tr[data-dlq-message-id='" + dlqMessageId + "']")), e -> true);
        entry.findElement(By.cssSelector("input.select")).click();
        browser.findElement(By.id("redrive-comment")).sendKeys(comment);
        browser.findElement(By.id(button)).click();
        await().atMost(UI).until(() -> browser.findElement(By.id("console-message")).getText().contains("PENDING_APPROVAL"));
        return requestOf(dlqMessageId);
    }

    /** Logs in with a bearer token of {@code user} (its roles), pasted as an operator would. */
    private void logIn(String user) {
        await().atMost(UI).until(() -> browser.findElement(By.id("login-token")).isDisplayed());
        browser.findElement(By.id("login-token")).clear();
        browser.findElement(By.id("login-token")).sendKeys(ConsoleClient.token(user));
        browser.findElement(By.id("login-button")).click();
        await().atMost(UI).until(() -> browser.findElement(By.id("login-status")).getText().equals("logged in as " + user));
    }

    /** The id of the (only) re-drive request of that DLQ entry. */
    private static long requestOf(String dlqMessageId) {
        List<Integer> ids = as(VIEWER).get("/admin/redrive-requests").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.dlqMessageId == '" + dlqMessageId + "' }.id");
        assertThat(ids).hasSize(1);
        return ids.get(0);
    }
}
