package dev.orderflow.status.rest;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Instants as the APIs write them (status and DLQ console): ISO-8601 UTC, always with milliseconds ({@code 2026-11-29T07:00:00.120Z}). */
public final class ApiTime {

    // Instant.toString() drops the fraction when it is zero; clients rely on a fixed shape.
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private ApiTime() {
    }

    public static String format(Instant instant) {
        return instant == null ? null : FORMAT.format(instant);
    }
}
