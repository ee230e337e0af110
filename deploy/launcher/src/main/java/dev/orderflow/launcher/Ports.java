package dev.orderflow.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** Port probes: which ports are free to bind and which ones answer. */
public final class Ports {

    static final String EPHEMERAL_RANGE_FILE = "/proc/sys/net/ipv4/ip_local_port_range";

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

    /**
     * A port that is free now, chosen below the kernel's ephemeral range: a port handed out by
     * binding port 0 comes from that range, and between this probe and the service's own bind an
     * outgoing connection of any process (a broker client, a JDBC pool) can be given the same
     * number as its source port (seen: "Port ... seems to be in use" at a service's start).
     */
    public static int freePort() {
        return freePort(Set.of());
    }

    /**
     * {@link #freePort()} that is none of {@code taken}: the ports already chosen for processes that
     * have not bound them yet. A suite that chooses all its ports before starting anything would
     * otherwise now and then give one port to two processes, and the later one fails to start.
     */
    public static int freePort(Set<Integer> taken) {
        int[] range = ephemeralRange();
        int low = 10_000;
        int high = Math.min(range[0], 65_536);
        if (high - low >= 1_000) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int attempt = 0; attempt < 200; attempt++) {
                int port = low + random.nextInt(high - low);
                if (!taken.contains(port) && isFree(port)) {
                    return port;
                }
            }
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port", e);
        }
    }

    /** The kernel's ephemeral port range (Linux), or the IANA one where it cannot be read. */
    static int[] ephemeralRange() {
        try {
            // Not Files.readString: procfs reports size 0 and JDK 17 then returned only the first byte.
            String[] parts = Files.readAllLines(Path.of(EPHEMERAL_RANGE_FILE)).get(0).trim().split("\\s+");
            return new int[] { Integer.parseInt(parts[0]), Integer.parseInt(parts[1]) };
        } catch (IOException | RuntimeException e) {
            return new int[] { 49_152, 65_535 };
        }
    }

    /** {@code preferred} when it is free (and 0 is not asked for), otherwise a free port. */
    public static int preferredOrFree(int preferred) {
        return preferred > 0 && isFree(preferred) ? preferred : freePort();
    }

    /** {@code preferred} if all its {@link #brokerPorts} are free, else 0 (let EmbeddedRocketMQ choose). */
    public static int brokerPortOrAny(int preferred) {
        return preferred > 2 && brokerPorts(preferred).stream().allMatch(Ports::isFree) ? preferred : 0;
    }

    /** The ports a broker listening on {@code port} binds: P-2 (VIP channel), P and P+1 (HA). */
    public static List<Integer> brokerPorts(int port) {
        return List.of(port - 2, port, port + 1);
    }
}
