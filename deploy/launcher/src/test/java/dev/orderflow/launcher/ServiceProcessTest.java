package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A real child JVM ({@link FakeService}) supervised as the launcher supervises a service. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ServiceProcessTest {

    private final Path dir = Path.of("target", "service-process-test-" + System.nanoTime()).toAbsolutePath();

    @Test
    void waitsUntilReadyLogsOutputAndStops() throws IOException {
        int port = Ports.freePort();
        ServiceProcess service = start("ready-later", port, "-Dfake.ready-after-ms=1500");

        long started = System.nanoTime();
        service.awaitReady(System.nanoTime() + Duration.ofSeconds(30).toNanos());

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1000));
        assertThat(Files.readString(service.log())).contains("fake service listening on " + port);
        service.stop(Duration.ofSeconds(10));
        assertThat(service.handle().isAlive()).isFalse();
        assertThat(Ports.isFree(port)).isTrue();
    }

    @Test
    void reportsAChildThatExitsBeforeItIsReadyWithItsLog() {
        ServiceProcess service = start("broken", Ports.freePort(), "-Dfake.exit-code=3");

        assertThatThrownBy(() -> service.awaitReady(System.nanoTime() + Duration.ofSeconds(30).toNanos()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("broken exited with code 3 before it was ready")
                .hasMessageContaining("fake service failing on purpose");
    }

    @Test
    void reportsAChildThatIsNotReadyInTime() {
        ServiceProcess service = start("slow", Ports.freePort(), "-Dfake.ready-after-ms=60000");
        try {
            assertThatThrownBy(() -> service.awaitReady(System.nanoTime() + Duration.ofSeconds(3).toNanos()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("slow was not ready")
                    .hasMessageContaining("HTTP 503");
        } finally {
            service.stop(Duration.ofSeconds(10));
        }
    }

    private ServiceProcess start(String name, int port, String option) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-XX:+UseSerialGC", "-Dquarkus.http.port=" + port, option,
                "-cp", System.getProperty("java.class.path"), FakeService.class.getName()));
        return ServiceProcess.start(name, command, Map.of(), dir.resolve(name), dir.resolve(name + ".log"),
                URI.create("http://127.0.0.1:" + port + "/q/health/ready"));
    }
}
