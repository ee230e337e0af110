package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void freePortsLieBelowTheEphemeralRangeAndCanBeBound() throws IOException {
        int ephemeralStart = Ports.ephemeralRange()[0];
        for (int i = 0; i < 20; i++) {
            int port = Ports.freePort();
            assertThat(port).isBetween(10_000, ephemeralStart - 1);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress("127.0.0.1", port));
                assertThat(Ports.isFree(port)).as("bound now").isFalse();
            }
        }
    }
}
