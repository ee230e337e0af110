package dev.orderflow.status.console;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.orderflow.status.console.ConsoleClient.OPERATOR;
import static dev.orderflow.status.console.ConsoleClient.VIEWER;
import static dev.orderflow.status.console.ConsoleClient.as;
import static dev.orderflow.status.console.ConsoleClient.awaitEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;

import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rest.fuzz.ApiCallers;
import dev.orderflow.status.StatusBroker;
import dev.orderflow.status.StatusTopics;
import dev.orderflow.status.dashboard.DashboardSignIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWireMock;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * The dashboard signed in with the issuer's OpenID Connect authorization-code flow: Quarkus' mock
 * issuer ({@link OidcWiremockTestResource}: discovery, login page, token endpoint, keys of a
 * Keycloak-like realm), the dashboard tenant enabled by this test's profile, a real headless Chromium
 * driving the page and the issuer's login form, real RocketMQ and MariaDB behind the API.
 * <p>
 * The mock signs everyone in as {@code alice} with the groups of its system properties. Per person
 * of the console, {@link #issuerKnowsTheConsolePeople} adds stubs to that same server: its login form
 * with that user name returns a code of that person, and the token endpoint exchanges that code for
 * tokens signed with the mock's key, carrying the person's roles in {@code groups} as the deployment's
 * issuer does. Every other step (state cookie, PKCE, code exchange with the client secret, signature,
 * issuer and audience checks, session cookie) is Quarkus' own.
 */
@QuarkusTest
@TestProfile(DashboardCodeFlowTest.CodeFlowOn.class)
@WithTestResource(StatusTopics.class)
@WithTestResource(OidcWiremockTestResource.class)
class DashboardCodeFlowTest {

    static final String CLIENT_ID = "orderflow-dashboard";

    /** The dashboard tenant enabled as a deployment would, pointed at the mock issuer's realm. */
    public static class CodeFlowOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.oidc.dashboard.tenant-enabled", "true",
                    "quarkus.oidc.dashboard.auth-server-url", "${keycloak.url}/realms/quarkus",
                    "quarkus.oidc.dashboard.client-id", CLIENT_ID,
                    "quarkus.oidc.dashboard.credentials.secret", "dashboard-test-client-secret-of-32-chars-or-more");
        }
    }

    private static final Duration UI = Duration.ofSeconds(20);
    private static final String REALM = "/auth/realms/quarkus";
    private static final String END_SESSION = REALM + "/protocol/openid-connect/end-session";
    /** The console's people (ConsoleClient's roles), signed in through the issuer's login form. */
    private static final Map<String, Set<String>> PEOPLE = Map.of(VIEWER, Set.of("viewer"),
            OPERATOR, Set.of("viewer", "operator"));

    @RegisterExtension
    static final HeadlessChromium CHROMIUM = new HeadlessChromium();

    private static WebDriver browser;
    private static boolean stubbed;

    @OidcWireMock
    WireMockServer issuer;

    @TestHTTPResource("/dashboard/")
    URL dashboard;

    @BeforeAll
    static void openTheBrowser() {
        browser = CHROMIUM.driver();
    }

    @BeforeEach
    void issuerKnowsTheConsolePeople() {
        if (!stubbed) {
            PEOPLE.forEach((person, roles) -> {
                issuer.stubFor(get(urlPathEqualTo("/login")).withQueryParam("username", WireMock.equalTo(person)).atPriority(1)
                        .willReturn(aResponse().withStatus(302).withHeader("Location",
                                "{{request.query.redirect_uri}}?state={{request.query.state}}&code=code-of-" + person)
                                .withTransformers("response-template")));
                issuer.stubFor(post(urlPathEqualTo(REALM + "/token")).atPriority(1)
                        .withRequestBody(containing("grant_type=authorization_code"))
                        .withRequestBody(containing("code=code-of-" + person))
                        .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("{"
                                + "\"access_token\":\"" + OidcWiremockTestResource.generateJwtToken(person, roles, person,
                                        "Bearer", Set.of("orderflow")) + "\","
                                + "\"id_token\":\"" + OidcWiremockTestResource.generateJwtToken(person, roles, person, "ID",
                                        Set.of(CLIENT_ID)) + "\","
                                + "\"refresh_token\":\"refresh-of-" + person + "\",\"token_type\":\"Bearer\",\"expires_in\":300}")));
            });
            // The realm's end-session endpoint (listed in its discovery document) returns to the application.
            issuer.stubFor(get(urlPathEqualTo(END_SESSION)).willReturn(aResponse().withStatus(302)
                    .withHeader("Location", "{{request.query.post_logout_redirect_uri}}").withTransformers("response-template")));
            stubbed = true;
        }
        browser.get(dashboard.toString());
        browser.manage().deleteAllCookies();
    }

    @Test
    void aViewerSignsInWithTheIssuerSeesTheDataAndSignsOut() {
        String orderId = DlqConsoleTest.newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.deadLetter(OrderMessaging.INVENTORY_GROUP, orderId, "system", "connection refused");
        awaitEntry("inventory", OrderMessaging.messageKey(orderId, OrderEventType.CREATE));

        signIn(VIEWER);
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            WebElement row = browser.findElement(By.cssSelector("tr[data-order-id='" + orderId + "']"));
            assertThat(row.findElement(By.cssSelector("td[data-consumer='inventory']")).getAttribute("class"))
                    .contains("state-DEAD_LETTERED");
            assertThat(row.findElement(By.cssSelector("span.state-ATTENTION")).getText()).isEqualTo("ATTENTION");
            assertThat(browser.findElement(By.cssSelector("#dlq-table tr[data-consumer='inventory'] .depth")).getText())
                    .isNotEqualTo("0");
        });
        assertThat(browser.findElement(By.id("login-token")).isDisplayed()).isFalse();

        // The session: an HttpOnly, Secure, SameSite=Strict cookie; the page never sees a token.
        Cookie session = browser.manage().getCookieNamed(DashboardSignIn.SESSION_COOKIE);
        assertThat(session).isNotNull();
        assertThat(session.isHttpOnly()).isTrue();
        assertThat(session.isSecure()).isTrue();
        assertThat(session.getSameSite()).isEqualTo("Strict");
        assertThat(session.getPath()).isEqualTo("/");
        withSession(session).get("/dashboard/session").then().statusCode(200)
                .body("subject", equalTo(VIEWER)).body("roles", contains("viewer"));
        // A state-changing call with the cookie alone is refused before anything runs; with the page's header
        // the roles decide (a viewer may not request a re-drive).
        String redrive = "{\"dlqMessageIds\":[\"NO-SUCH-ENTRY\"]}";
        withSession(session).contentType(ContentType.JSON).body(redrive).post("/admin/dlq/sms/redrive-requests").then()
                .statusCode(403).contentType("application/problem+json").body("type", endsWith("/csrf-header-missing"));
        withSession(session).header(DashboardSignIn.CSRF_HEADER, "1").contentType(ContentType.JSON).body(redrive)
                .post("/admin/dlq/sms/redrive-requests").then()
                .statusCode(403).contentType("application/problem+json").body("type", endsWith("/forbidden"));

        browser.findElement(By.id("sign-out-button")).click();
        await().atMost(UI).ignoreExceptions().until(() -> browser.getCurrentUrl().equals(dashboard.toString())
                && browser.findElement(By.id("sign-in-link")).isDisplayed());
        assertThat(browser.findElement(By.id("login-status")).getText()).isEqualTo("not logged in");
        assertThat(browser.manage().getCookieNamed(DashboardSignIn.SESSION_COOKIE)).isNull();
        assertThat(browser.findElements(By.cssSelector("tr[data-order-id]"))).isEmpty();
        // Quarkus sent the browser to the issuer's end-session endpoint with the ID token, to come back here.
        issuer.verify(getRequestedFor(urlPathEqualTo(END_SESSION))
                .withQueryParam("post_logout_redirect_uri", WireMock.equalTo(dashboard.toString())));
    }

    @Test
    void anOperatorSignedInWithTheIssuerRequestsARedriveThroughThePage() {
        String orderId = DlqConsoleTest.newOrderId();
        StatusBroker.sendCreate(orderId);
        StatusBroker.done(orderId, OrderEventType.CREATE, "sms");
        StatusBroker.deadLetter(OrderMessaging.INVENTORY_GROUP, orderId, "system", "connection refused");
        String dlqMessageId = (String) awaitEntry("inventory", OrderMessaging.messageKey(orderId, OrderEventType.CREATE))
                .get("dlqMessageId");

        signIn(OPERATOR);
        await().atMost(UI).ignoreExceptions().untilAsserted(
                () -> browser.findElement(By.cssSelector("a[data-dlq-consumer='inventory']")).click());
        // The console may render twice (the sign-in finishing, the link's own load): select in the table as it is now.
        By entrySelect = By.cssSelector("tr[data-dlq-message-id='" + dlqMessageId + "'] input.select");
        await().atMost(UI).ignoreExceptions().untilAsserted(() -> {
            WebElement select = browser.findElement(entrySelect);
            if (!select.isSelected()) {
                select.click();
            }
            assertThat(browser.findElement(entrySelect).isSelected()).isTrue();
        });
        browser.findElement(By.id("redrive-comment")).sendKeys("signed in with the issuer");
        browser.findElement(By.id("request-redrive")).click();
        await().atMost(UI).until(() -> browser.findElement(By.id("console-message")).getText().contains("PENDING_APPROVAL"));

        Map<String, Object> request = as(VIEWER).get("/admin/redrive-requests").then().statusCode(200).extract().jsonPath()
                .getMap("find { it.dlqMessageId == '" + dlqMessageId + "' }");
        assertThat(request).containsEntry("requestedBy", OPERATOR).containsEntry("status", "PENDING_APPROVAL")
                .containsEntry("comment", "signed in with the issuer");

        // A bearer token beside the cookie wins: the call is the token's caller, not the session's.
        Cookie session = browser.manage().getCookieNamed(DashboardSignIn.SESSION_COOKIE);
        withSession(session).auth().oauth2(ConsoleClient.token(VIEWER)).get("/dashboard/session").then().statusCode(200)
                .body("subject", equalTo(VIEWER));
        withSession(session).auth().oauth2(ConsoleClient.token(VIEWER)).contentType(ContentType.JSON)
                .body("{\"dlqMessageIds\":[\"NO-SUCH-ENTRY\"]}").post("/admin/dlq/sms/redrive-requests").then()
                .statusCode(403).body("type", endsWith("/forbidden"));
    }

    @Test
    void withoutTokenOrSessionTheApiAnswers401ProblemsAndOnlyTheLoginRedirectsToTheIssuer() {
        for (String path : List.of("/admin/dlq", "/admin/redrive-requests", "/orders/status?state=PENDING",
                "/status/summary", "/lag", "/dashboard/session")) {
            assertUnauthorizedProblem(RestAssured.given().redirects().follow(false).get(path), path);
            // A session cookie that is not one (forged, or of another key) is no session: a 401 problem too.
            Response badSession = RestAssured.given().redirects().follow(false)
                    .cookie(DashboardSignIn.SESSION_COOKIE, "not-a-session").get(path);
            assertUnauthorizedProblem(badSession, path + " with a bad cookie");
            assertThat(badSession.jsonPath().getString("detail")).as(path).contains("sign in again");
        }
        RestAssured.given().get("/dashboard/login-methods").then().statusCode(200)
                .body("token", equalTo(true)).body("codeFlow", equalTo(true))
                .body("login", equalTo(DashboardSignIn.LOGIN_PATH)).body("logout", equalTo(DashboardSignIn.LOGOUT_PATH));

        Response login = RestAssured.given().redirects().follow(false).get(DashboardSignIn.LOGIN_PATH);
        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(login.header("Location")).startsWith(issuer.baseUrl() + REALM)
                .contains("client_id=" + CLIENT_ID).contains("response_type=code").contains("code_challenge=")
                .contains("redirect_uri=" + URLEncoder.encode(dashboard + "login", StandardCharsets.UTF_8));
        // The code flow's state cookie, to be matched when the issuer sends the browser back.
        assertThat(login.getHeaders().getValues("Set-Cookie")).anyMatch(c -> c.startsWith("q_auth_" + DashboardSignIn.TENANT));

        // A bearer token needs no session, also with the code flow on.
        ApiCallers.withToken(ConsoleClient.token(VIEWER)).get("/admin/dlq").then().statusCode(200);
        ApiCallers.withToken(ConsoleClient.token(VIEWER)).get("/dashboard/session").then().statusCode(200)
                .body("subject", equalTo(VIEWER)).body("roles", contains("viewer"));
    }

    @Test
    void theMockIssuersOwnUserIsSignedInWithItsGroupsAsRolesAndSeesNoStaffData() {
        // Not one of the stubbed people: the mock's own login and tokens (alice, groups "user" and "admin").
        signIn("alice");
        Cookie session = browser.manage().getCookieNamed(DashboardSignIn.SESSION_COOKIE);
        withSession(session).get("/dashboard/session").then().statusCode(200)
                .body("subject", equalTo("alice")).body("roles", contains("admin", "user"));
        withSession(session).get("/admin/dlq").then().statusCode(403).contentType("application/problem+json");
        await().atMost(UI).until(() -> browser.findElement(By.id("orders-message")).getText().contains("403"));
    }

    /** Signs in through the page's "Sign in" and the issuer's login form, as {@code user}. */
    private void signIn(String user) {
        browser.get(dashboard.toString());
        await().atMost(UI).ignoreExceptions().until(() -> browser.findElement(By.id("sign-in-link")).isDisplayed());
        browser.findElement(By.id("sign-in-link")).click();
        WebElement name = await().atMost(UI).ignoreExceptions().until(() -> browser.findElement(By.id("username")),
                e -> true);
        assertThat(browser.getCurrentUrl()).startsWith(issuer.baseUrl() + REALM);
        name.sendKeys(user);
        browser.findElement(By.id("password")).sendKeys("secret");
        browser.findElement(By.id("login")).click();
        await().atMost(UI).ignoreExceptions()
                .until(() -> browser.findElement(By.id("login-status")).getText().equals("signed in as " + user));
        assertThat(browser.getCurrentUrl()).isEqualTo(dashboard.toString());
        assertThat(browser.findElement(By.id("sign-out-button")).isDisplayed()).isTrue();
    }

    /** A request carrying the browser's session cookie, as the page's own calls do. */
    private static RequestSpecification withSession(Cookie session) {
        assertThat(session).as("the browser's session cookie").isNotNull();
        return RestAssured.given().redirects().follow(false).cookie(session.getName(), session.getValue());
    }

    private static void assertUnauthorizedProblem(Response response, String what) {
        assertThat(response.statusCode()).as(what).isEqualTo(401);
        assertThat(response.contentType()).as(what).startsWith("application/problem+json");
        assertThat(response.header("Location")).as(what).isNull();
    }
}
