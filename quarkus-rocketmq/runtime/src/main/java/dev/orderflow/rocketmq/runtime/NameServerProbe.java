package dev.orderflow.rocketmq.runtime;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Whether any of a channel's name servers accepts a TCP connection. */
final class NameServerProbe {

    private final String[] addresses;
    private final int timeoutMillis;

    NameServerProbe(String nameServer, int timeoutMillis) {
        this.addresses = nameServer.split(";");
        this.timeoutMillis = timeoutMillis;
    }

    /** The first reachable address, or null when none answers. */
    String reachable() {
        for (String address : addresses) {
            String trimmed = address.trim();
            int colon = trimmed.lastIndexOf(':');
            if (colon <= 0) {
                continue;
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(trimmed.substring(0, colon),
                        Integer.parseInt(trimmed.substring(colon + 1))), timeoutMillis);
                return trimmed;
            } catch (IOException | NumberFormatException e) {
                // try the next address; the report names all of them when none answers
            }
        }
        return null;
    }

    String describe() {
        return String.join(";", addresses);
    }
}
