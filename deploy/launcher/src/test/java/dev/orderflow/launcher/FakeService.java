package dev.orderflow.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in service process for the launcher tests (like a fake third party: it is not what is
 * under test). It prints the configuration it was started with (and the heap it got), answers 503 on
 * {@code /q/health/ready} (on {@code quarkus.management.port} when given, else {@code quarkus.http.port})
 * for {@code fake.ready-after-ms}, then 200. With {@code fake.exit-code}
 * it prints a line and exits at once instead.
 */
public final class FakeService {

    public static void main(String[] args) throws IOException {
        String exitCode = System.getProperty("fake.exit-code");
        if (exitCode != null) {
            System.out.println("fake service failing on purpose");
            System.exit(Integer.parseInt(exitCode));
        }
        int port = Integer.getInteger("quarkus.http.port");
        long readyAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.getLong("fake.ready-after-ms", 0));
        System.out.println("jdbc-url=" + System.getProperty("quarkus.datasource.jdbc.url"));
        System.out.println("name-server=" + System.getProperty("mp.messaging.connector.smallrye-rocketmq.name-server"));
        System.out.println("password-in-env=" + (System.getenv("QUARKUS_DATASOURCE_PASSWORD") != null));
        System.out.println("max-heap-mb=" + Runtime.getRuntime().maxMemory() / (1024 * 1024));
        // Like a service with its management interface on: readiness on the management port when given.
        int healthPort = Integer.getInteger("quarkus.management.port", port);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", healthPort), 0);
        server.createContext("/q/health/ready", exchange -> {
            boolean ready = System.nanoTime() >= readyAt;
            byte[] body = ("{\"status\":\"" + (ready ? "UP" : "DOWN") + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(ready ? 200 : 503, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        System.out.println("fake service listening on " + healthPort);
    }
}
