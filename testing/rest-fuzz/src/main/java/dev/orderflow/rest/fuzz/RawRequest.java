package dev.orderflow.rest.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/1.1 request exactly as it goes on the wire, including what well-behaved clients refuse
 * to send (duplicate or garbage headers, non-ASCII bytes, a body that is not valid UTF-8).
 *
 * @param method        request method, sent as is
 * @param target        request target (path and query), sent as is: encode it yourself
 * @param headers       header lines in order, duplicates allowed; {@code Host} and
 *                      {@code Connection: close} are added unless present
 * @param body          body bytes, may be empty
 * @param contentLength whether to add {@code Content-Length} for the body (false: only the given headers)
 */
public record RawRequest(String method, String target, List<Header> headers, byte[] body, boolean contentLength) {

    public RawRequest {
        headers = List.copyOf(headers);
        body = body == null ? new byte[0] : body;
    }

    /** A header line; name and value are written as raw bytes. */
    public record Header(byte[] name, byte[] value) {

        public static Header of(String name, String value) {
            return new Header(name.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        }
    }

    public static RawRequest of(String method, String target, List<Header> headers, String body) {
        return new RawRequest(method, target, headers, body == null ? null : body.getBytes(StandardCharsets.UTF_8),
                body != null);
    }

    public static RawRequest get(String target) {
        return new RawRequest("GET", target, List.of(), null, false);
    }

    /** The same request with one more header at the end. */
    public RawRequest withHeader(Header header) {
        List<Header> more = new ArrayList<>(headers);
        more.add(header);
        return new RawRequest(method, target, more, body, contentLength);
    }

    /** The bytes of the request line, the headers and the blank line (no body). */
    public byte[] head(String host) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((method + " " + target + " HTTP/1.1\r\n").getBytes(StandardCharsets.UTF_8));
        if (!has("Host")) {
            out.writeBytes(("Host: " + host + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        for (Header header : headers) {
            out.writeBytes(header.name());
            out.writeBytes(": ".getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(header.value());
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        if (contentLength) {
            out.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        if (!has("Connection")) {
            out.writeBytes("Connection: close\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    public byte[] bytes(String host) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head(host));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** Whether a header of this name (any case) is among the headers. */
    public boolean hasHeader(String name) {
        return has(name);
    }

    private boolean has(String name) {
        return headers.stream().anyMatch(h -> new String(h.name(), StandardCharsets.ISO_8859_1).equalsIgnoreCase(name));
    }
}
