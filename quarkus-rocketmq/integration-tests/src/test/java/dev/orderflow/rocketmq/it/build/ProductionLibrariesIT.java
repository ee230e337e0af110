package dev.orderflow.rocketmq.it.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Dependency hygiene of a production build of the sample application: runs after {@code package}
 * (failsafe) and lists the jars Quarkus put into the application. The in-process broker, the
 * gRPC client stack, OpenTelemetry's SDK and exporters, netty-all and test libraries must stay
 * out; the RocketMQ remoting client must be in.
 */
class ProductionLibrariesIT {

    /** Jar file names (Quarkus names them groupId.artifactId-version.jar) that must not ship. */
    static final List<Pattern> FORBIDDEN = List.of(
            Pattern.compile("org\\.apache\\.rocketmq\\.rocketmq-(broker|namesrv|store|rocksdb|controller|proxy|container|tieredstore)-.*"),
            Pattern.compile("io\\.grpc\\..*"),
            Pattern.compile(".*netty-all-.*"),
            Pattern.compile("io\\.opentelemetry\\.opentelemetry-(sdk|exporter).*"),
            Pattern.compile(".*awaitility.*"),
            Pattern.compile("dev\\.orderflow\\.rocketmq-embedded-.*"));

    static final Path TARGET = Path.of("target");

    /** The fast-jar of a JVM build and the class path of a native build, whichever were packaged. */
    @Test
    void packagedApplicationContainsTheClientAndNoBrokerOrTestJars() throws IOException {
        List<Path> libDirs = Stream.of(TARGET.resolve("quarkus-app/lib"), TARGET.resolve("native-sources/lib"))
                .filter(Files::isDirectory).toList();
        assertThat(libDirs).as("packaged libraries under %s; run 'mvn package' first", TARGET.toAbsolutePath())
                .isNotEmpty();
        for (Path libDir : libDirs) {
            assertProductionLibraries(libDir);
        }
    }

    static void assertProductionLibraries(Path libDir) throws IOException {
        List<String> jars;
        try (Stream<Path> files = Files.walk(libDir)) {
            jars = files.filter(f -> f.toString().endsWith(".jar")).map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertThat(jars).as("jars in %s", libDir)
                .anyMatch(j -> j.startsWith("org.apache.rocketmq.rocketmq-client-"))
                .noneMatch(j -> FORBIDDEN.stream().anyMatch(p -> p.matcher(j).matches()));
    }
}
