package dev.orderflow.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Port probes: which ports are free to bind and which ones answer. */
public final class Ports {

    private Ports() {
    }

    /** Whether nothing listens on {@code port} (bind test on all interfaces, as the broker's HA port binds there). */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("0.0.0.0", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether a TCP connection to {@code host:port} is accepted within a second. */
    public static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port", e);
        }
    }

    /** {@code preferred} when it is free (and 0 is not asked for), otherwise a free port. */
    public static int preferredOrFree(int preferred) {
        return preferred > 0 && isFree(preferred) ? preferred : freePort();
    }

    /** The broker listens on P, P-2 (VIP channel) and P+1 (HA): {@code preferred} if all three are free, else 0 (let EmbeddedRocketMQ choose). */
    public static int brokerPortOrAny(int preferred) {
        return preferred > 2 && isFree(preferred) && isFree(preferred - 2) && isFree(preferred + 1) ? preferred : 0;
    }
}
