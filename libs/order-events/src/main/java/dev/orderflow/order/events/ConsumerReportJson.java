package dev.orderflow.order.events;

import com.fasterxml.jackson.core.JsonProcessingException;

/** Writes {@link ConsumerReport}s as JSON; {@link ConsumerReportParser} reads them. */
public final class ConsumerReportJson {

    private ConsumerReportJson() {
    }

    /** The JSON body of a report message; null fields are written as null. */
    public static String toJson(ConsumerReport report) {
        try {
            return OrderEventJson.mapper().writeValueAsString(report);
        } catch (JsonProcessingException e) {
            // A record of strings, enums and an instant always serializes: a programming error.
            throw new IllegalStateException("Cannot serialize consumer report " + report.messageKey(), e);
        }
    }
}
