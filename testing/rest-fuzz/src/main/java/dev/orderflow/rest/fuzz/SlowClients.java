package dev.orderflow.rest.fuzz;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Hostile connections that never finish a request: a partial body then a close, a partial body
 * then silence, headers trickled a byte at a time (slowloris). Every method is bounded in count
 * and time, and {@link #close()} closes every socket it opened.
 */
public final class SlowClients implements AutoCloseable {

    private final RawHttp http;
    private final List<Socket> open = new ArrayList<>();

    public SlowClients(RawHttp http) {
        this.http = http;
    }

    /** Sends the head (announcing the full Content-Length) and half of the body, then closes. */
    public void halfBodyThenClose(RawRequest request) throws IOException {
        try (Socket socket = http.connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(request.head(http.host()));
            out.write(Arrays.copyOf(request.body(), request.body().length / 2));
            out.flush();
        }
    }

    /** Opens a connection that sends the head and half of the body, then stays silent (until {@link #close()}). */
    public Socket halfBodyThenStall(RawRequest request) throws IOException {
        Socket socket = http.connect();
        open.add(socket);
        OutputStream out = socket.getOutputStream();
        out.write(request.head(http.host()));
        out.write(Arrays.copyOf(request.body(), request.body().length / 2));
        out.flush();
        return socket;
    }

    /**
     * Sends {@code request} one byte at a time on {@code connections} connections, a byte per
     * connection every {@code interval}, for at most {@code duration}; the connections stay open.
     *
     * @return the connections (their requests unfinished unless the duration sufficed)
     */
    public List<Socket> trickle(RawRequest request, int connections, Duration interval, Duration duration)
            throws IOException, InterruptedException {
        byte[] bytes = request.bytes(http.host());
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            Socket socket = http.connect();
            open.add(socket);
            sockets.add(socket);
        }
        long end = System.nanoTime() + duration.toNanos();
        for (int at = 0; at < bytes.length && System.nanoTime() < end; at++) {
            for (Socket socket : sockets) {
                try {
                    socket.getOutputStream().write(bytes[at]);
                    socket.getOutputStream().flush();
                } catch (IOException e) {
                    // The server closed this one; that is an allowed defence.
                }
            }
            // The pace of the attack itself, not a wait for a condition.
            Thread.sleep(interval.toMillis());
        }
        return sockets;
    }

    /**
     * Sends {@code request} {@code times} times and throws unless every answer has
     * {@code expectedStatus} and came within {@code bound}: the service still serves normal clients.
     */
    public static void assertAnswersPromptly(RawHttp http, RawRequest request, int expectedStatus, int times,
            Duration bound) throws IOException {
        for (int i = 0; i < times; i++) {
            long start = System.nanoTime();
            RawResponse answer = http.exchange(request);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            if (answer.status() != expectedStatus || took.compareTo(bound) > 0) {
                throw new AssertionError("request " + (i + 1) + " of " + times + ": status " + answer.status()
                        + " after " + took.toMillis() + " ms, expected " + expectedStatus + " within " + bound);
            }
        }
    }

    @Override
    public void close() {
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException e) {
                // Closing a socket the server already reset.
            }
        }
        open.clear();
    }
}
