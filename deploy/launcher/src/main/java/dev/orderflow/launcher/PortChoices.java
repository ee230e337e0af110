package dev.orderflow.launcher;

import java.util.HashSet;
import java.util.Set;

/**
 * The ports of one suite's processes, all chosen before any of them binds: each is free when chosen
 * ({@link Ports#freePort(Set)}) and none is handed out twice. Without the memory two choices made
 * before either process binds could be the same port, and the later process fails to start
 * ("Port ... seems to be in use").
 */
public final class PortChoices {

    private final Set<Integer> chosen = new HashSet<>();

    /** A free port not chosen before. */
    public synchronized int port() {
        int port = Ports.freePort(chosen);
        chosen.add(port);
        return port;
    }

    /**
     * A broker port P such that P, P-2 (VIP channel) and P+1 (HA) are all free and none was chosen
     * before; all three are taken by this choice.
     */
    public synchronized int brokerPort() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = Ports.freePort(chosen);
            if (port > 2 && !chosen.contains(port - 2) && !chosen.contains(port + 1) && Ports.isFree(port - 2)
                    && Ports.isFree(port + 1)) {
                chosen.add(port - 2);
                chosen.add(port);
                chosen.add(port + 1);
                return port;
            }
        }
        throw new IllegalStateException("No free port triple for the RocketMQ broker");
    }

    /** Every port chosen so far. */
    synchronized Set<Integer> chosen() {
        return Set.copyOf(chosen);
    }
}
