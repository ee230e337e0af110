package dev.orderflow.rocketmq.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;
import dev.orderflow.rocketmq.it.SecondRocketMQResource.InjectSecondRocketMQ;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Readiness per channel follows the name server: UP, then DOWN with the reason once it is gone,
 * then UP again when it is back. The channels {@code health-in}/{@code health-out} use a second
 * real in-process RocketMQ ({@link SecondRocketMQResource}) whose name server this test stops and
 * restarts; the other channels keep using the Dev Services broker and stay UP.
 */
@QuarkusTest
@WithTestResource(value = SecondRocketMQResource.class, scope = TestResourceScope.GLOBAL)
class ReadinessTest {

    static final String CHECK = "checks.find { it.name == 'SmallRye Reactive Messaging - readiness check' }";

    @InjectSecondRocketMQ
    EmbeddedRocketMQ second;

    @Test
    void channelReadinessGoesDownWithTheReasonWhenTheNameServerIsGoneAndUpWhenItIsBack() {
        String nameServer = second.nameServerAddress();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body(CHECK + ".data.'health-in'", equalTo("[OK]"))
                .body(CHECK + ".data.'health-out'", equalTo("[OK]")));

        second.stopNameServer();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/q/health/ready").then()
                    .statusCode(503)
                    .body("status", equalTo("DOWN"))
                    .body(CHECK + ".data.'health-in'", equalTo("[KO] - name server unreachable: " + nameServer))
                    .body(CHECK + ".data.'health-out'", equalTo("[KO] - name server unreachable: " + nameServer))
                    // Channels on the Dev Services broker are unaffected.
                    .body(CHECK + ".data.'basic-in'", equalTo("[OK]"))
                    .body("checks.status", hasItem("DOWN")));
        } finally {
            second.restartNameServer();
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body(CHECK + ".data.'health-in'", equalTo("[OK]")));
    }
}
