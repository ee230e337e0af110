package dev.orderflow.rest.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A response read by {@link RawHttp}.
 *
 * @param status  HTTP status, -1 when the server closed the connection without answering
 * @param headers header values by lower-case name
 * @param body    body bytes (de-chunked)
 */
public record RawResponse(int status, Map<String, List<String>> headers, byte[] body) {

    /** The first value of a header, null when absent. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
