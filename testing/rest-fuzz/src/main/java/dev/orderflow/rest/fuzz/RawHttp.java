package dev.orderflow.rest.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 client on a plain socket to a loopback port: one request per connection
 * ({@code Connection: close}), bytes sent exactly as given. Reads a response with
 * {@code Content-Length}, chunked, or delimited by the server closing the connection.
 */
public final class RawHttp {

    private final int port;
    private final Duration timeout;
    private final String authorization;

    public RawHttp(int port, Duration timeout) {
        this(port, timeout, null);
    }

    private RawHttp(int port, Duration timeout, String authorization) {
        this.port = port;
        this.timeout = timeout;
        this.authorization = authorization;
    }

    /**
     * The same client, adding {@code Authorization: <value>} to every request that has no
     * Authorization header of its own: the hostile input reaches the application, not the 401.
     */
    public RawHttp withAuthorization(String value) {
        return new RawHttp(port, timeout, value);
    }

    public int port() {
        return port;
    }

    public String host() {
        return "127.0.0.1:" + port;
    }

    /** Opens a connection to the service (loopback) with the read timeout of this client. */
    public Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), (int) timeout.toMillis());
        socket.setSoTimeout((int) timeout.toMillis());
        return socket;
    }

    public RawResponse exchange(RawRequest request) throws IOException {
        RawRequest sent = authorization == null || request.hasHeader("Authorization") ? request
                : request.withHeader(RawRequest.Header.of("Authorization", authorization));
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            try {
                out.write(sent.bytes(host()));
                out.flush();
            } catch (SocketException e) {
                // The server may answer (e.g. 413) and close before it has read a large body.
            }
            return read(socket.getInputStream());
        }
    }

    /** Reads one response; the status is -1 when the server closed the connection without answering. */
    public static RawResponse read(InputStream in) throws IOException {
        String statusLine;
        try {
            statusLine = line(in);
        } catch (SocketException e) {
            return new RawResponse(-1, Map.of(), new byte[0]);
        }
        if (statusLine == null) {
            return new RawResponse(-1, Map.of(), new byte[0]);
        }
        String[] parts = statusLine.split(" ", 3);
        int status = Integer.parseInt(parts[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        byte[] body;
        List<String> length = headers.get("content-length");
        List<String> encoding = headers.get("transfer-encoding");
        if (length != null) {
            body = in.readNBytes(Integer.parseInt(length.get(0)));
        } else if (encoding != null && encoding.get(0).equalsIgnoreCase("chunked")) {
            body = chunked(in);
        } else {
            body = readToEnd(in);
        }
        return new RawResponse(status, headers, body);
    }

    private static byte[] chunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (String size = line(in); size != null; size = line(in)) {
            int n = Integer.parseInt(size.split(";")[0].trim(), 16);
            if (n == 0) {
                break;
            }
            body.writeBytes(in.readNBytes(n));
            line(in);
        }
        return body.toByteArray();
    }

    private static byte[] readToEnd(InputStream in) throws IOException {
        try {
            return in.readAllBytes();
        } catch (SocketException e) {
            return new byte[0];
        }
    }

    /** A CRLF-terminated line (ISO-8859-1), null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }
}
