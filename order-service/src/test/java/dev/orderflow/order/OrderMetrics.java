package dev.orderflow.order;

import static dev.orderflow.rest.fuzz.ApiCallers.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Meters of the running application, read from its Prometheus endpoint. */
public final class OrderMetrics {

    private static final Pattern ACCESS_RECORDS_DROPPED =
            Pattern.compile("(?m)^orders_access_log_dropped_total(?:\\{[^}]*})? ([0-9.E+-]+)$");

    private OrderMetrics() {
    }

    /** {@code orders_access_log_dropped_total} as /q/metrics shows it now. */
    public static double accessRecordsDropped() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher matcher = ACCESS_RECORDS_DROPPED.matcher(metrics);
        assertThat(matcher.find()).as("orders_access_log_dropped_total in /q/metrics").isTrue();
        return Double.parseDouble(matcher.group(1));
    }
}
