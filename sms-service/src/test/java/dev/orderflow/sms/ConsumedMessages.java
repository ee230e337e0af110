package dev.orderflow.sms;

import static dev.orderflow.rest.fuzz.ApiCallers.given;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many order-event messages the application has acknowledged so far, read from its Prometheus
 * endpoint (the connector's {@code rocketmq_messages_acked_total} of channel order-events). Lets a
 * test wait until every copy of a message it published has been consumed.
 */
public final class ConsumedMessages {

    private static final Pattern ACKED = Pattern.compile(
            "^rocketmq_messages_acked_total\\{[^}]*channel=\"order-events\"[^}]*} (\\S+)$", Pattern.MULTILINE);

    private ConsumedMessages() {
    }

    public static long acked() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher matcher = ACKED.matcher(metrics);
        return matcher.find() ? (long) Double.parseDouble(matcher.group(1)) : 0;
    }
}
