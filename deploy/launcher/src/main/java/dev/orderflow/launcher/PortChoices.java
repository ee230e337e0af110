package dev.orderflow.launcher;

import java.util.Collections;
import java.util.HashSet;
import java.util.List;
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
     * A broker port whose {@link Ports#brokerPorts} are all free and none chosen before; all of them
     * are taken by this choice.
     */
    public synchronized int brokerPort() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = Ports.freePort(chosen);
            List<Integer> brokerPorts = Ports.brokerPorts(port);
            if (port > 2 && Collections.disjoint(brokerPorts, chosen) && brokerPorts.stream().allMatch(Ports::isFree)) {
                chosen.addAll(brokerPorts);
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
