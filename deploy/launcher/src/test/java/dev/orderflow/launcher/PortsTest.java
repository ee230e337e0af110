package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
    void aFreePortIsNoneOfThoseAlreadyChosen() {
        int ephemeralStart = Ports.ephemeralRange()[0];
        // Every port below the ephemeral range taken but one: the choice is that one, or, if 200 random
        // tries miss it, one bound by the kernel in the ephemeral range; never a taken one.
        Set<Integer> taken = IntStream.range(10_000, ephemeralStart).boxed().collect(Collectors.toSet());
        int left = 10_000 + (ephemeralStart - 10_000) / 2;
        taken.remove(left);
        for (int i = 0; i < 5; i++) {
            assertThat(Ports.freePort(taken)).isNotIn(taken);
        }
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
