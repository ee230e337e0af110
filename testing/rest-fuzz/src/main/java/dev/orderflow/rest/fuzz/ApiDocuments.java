package dev.orderflow.rest.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Keeps the API reference in {@code docs/api/<service>.yaml} equal to the OpenAPI document the
 * service serves: a service's test fetches its document and compares. With
 * {@code -Dorderflow.api-docs.update=true} the test writes the served document instead, for the
 * change to be committed with the code that changed the API.
 */
public final class ApiDocuments {

    /** System property that makes {@link #assertCurrent} write the served document. */
    public static final String UPDATE_PROPERTY = "orderflow.api-docs.update";

    private ApiDocuments() {
    }

    /**
     * Fails when {@code docs/api/<service>.yaml} (from the repository root, the parent of the
     * module's folder the test runs in) differs from the YAML document at {@code openApi}.
     */
    public static void assertCurrent(URL openApi, String service) {
        Path kept = Path.of("..", "docs", "api", service + ".yaml").toAbsolutePath().normalize();
        String served = fetch(openApi);
        try {
            if (Boolean.getBoolean(UPDATE_PROPERTY)) {
                Files.createDirectories(kept.getParent());
                Files.writeString(kept, served, StandardCharsets.UTF_8);
                return;
            }
            String expected = Files.exists(kept) ? Files.readString(kept, StandardCharsets.UTF_8) : null;
            if (!served.equals(expected)) {
                throw new AssertionError((expected == null ? kept + " is missing"
                        : kept + " is stale: " + firstDifference(expected, served)) + ". Write it again with\n  mvn test -pl "
                        + service + " -Dtest=ApiDocumentTest -D" + UPDATE_PROPERTY + "=true\nand commit it with the change.");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or write " + kept, e);
        }
    }

    private static String firstDifference(String kept, String served) {
        String[] keptLines = kept.split("\n", -1);
        String[] servedLines = served.split("\n", -1);
        for (int i = 0; i < Math.min(keptLines.length, servedLines.length); i++) {
            if (!keptLines[i].equals(servedLines[i])) {
                return "line " + (i + 1) + " is \"" + keptLines[i] + "\", the service serves \"" + servedLines[i] + "\"";
            }
        }
        return "it has " + keptLines.length + " lines, the served document " + servedLines.length;
    }

    private static String fetch(URL openApi) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(openApi
                    + "?format=yaml")).timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError(openApi + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot fetch " + openApi, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while fetching " + openApi, e);
        }
    }
}
