package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void readsTheKernelsEphemeralRange() throws IOException {
        Path file = Path.of(Ports.EPHEMERAL_RANGE_FILE);
        Assumptions.assumeTrue(Files.isReadable(file), "Linux only");
        String[] expected;
        try (InputStream in = Files.newInputStream(file)) {
            expected = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+");
        }
        assertThat(Ports.ephemeralRange()).containsExactly(Integer.parseInt(expected[0]), Integer.parseInt(expected[1]));
    }

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
