package dev.orderflow.rocketmq.it.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the extension registered for GraalVM, read back from the output of the native sources
 * step ({@code -Dquarkus.native.enabled=true -Dquarkus.native.sources-only=true}, profile
 * {@code native-sources}): reflection and resource configuration inside the runner jar
 * ({@code META-INF/native-image/*.json}) and the runtime-initialized classes and packages,
 * which Quarkus compiles into the generated {@code io.quarkus.runner.Feature}.
 */
@EnabledIfSystemProperty(named = "quarkus-rocketmq.check-native-sources", matches = "true")
class NativeSourcesIT {

    static final Path NATIVE_SOURCES = Path.of("target/native-sources");

    static Map<String, JsonNode> reflection;
    static String resourceConfig;
    static String featureClass;

    @BeforeAll
    static void readNativeSources() throws IOException {
        assertThat(NATIVE_SOURCES.resolve("native-image.args")).isRegularFile();
        Path runner;
        try (Stream<Path> files = Files.list(NATIVE_SOURCES)) {
            runner = files.filter(f -> f.getFileName().toString().endsWith("-runner.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no runner jar in " + NATIVE_SOURCES));
        }
        try (ZipFile jar = new ZipFile(runner.toFile())) {
            reflection = new HashMap<>();
            for (JsonNode entry : new ObjectMapper().readTree(read(jar, "META-INF/native-image/reflect-config.json"))) {
                reflection.put(entry.get("name").asText(), entry);
            }
            resourceConfig = new String(read(jar, "META-INF/native-image/resource-config.json"), StandardCharsets.UTF_8);
            // Class names are stored as plain ASCII constants in the class file.
            featureClass = new String(read(jar, "io/quarkus/runner/Feature.class"), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void protocolHeadersHaveTheirFieldsAndConstructorsRegistered() {
        for (String header : List.of(
                "org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader",
                "org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2",
                "org.apache.rocketmq.remoting.protocol.header.SendMessageResponseHeader",
                "org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader",
                "org.apache.rocketmq.remoting.protocol.header.EndTransactionRequestHeader",
                "org.apache.rocketmq.remoting.protocol.header.CheckTransactionStateRequestHeader",
                "org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader",
                "org.apache.rocketmq.remoting.rpc.TopicQueueRequestHeader")) {
            assertThat(reflection).as(header).containsKey(header);
            assertThat(reflection.get(header).path("allDeclaredFields").asBoolean()).as(header + " fields").isTrue();
            assertThat(reflection.get(header).path("allDeclaredConstructors").asBoolean()).as(header + " constructors")
                    .isTrue();
        }
        assertThat(reflection.keySet().stream().filter(n -> n.contains(".protocol.header."))).hasSizeGreaterThan(100);
    }

    @Test
    void wireBodiesAndTheTypesInsideThemAreRegisteredAsBeans() {
        for (String body : List.of(
                "org.apache.rocketmq.remoting.protocol.RemotingCommand",
                "org.apache.rocketmq.remoting.protocol.route.TopicRouteData",
                "org.apache.rocketmq.remoting.protocol.route.QueueData",
                "org.apache.rocketmq.remoting.protocol.route.BrokerData",
                "org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData",
                "org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData",
                "org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo",
                "org.apache.rocketmq.common.message.MessageQueue")) {
            assertThat(reflection).as(body).containsKey(body);
            assertThat(reflection.get(body).path("allDeclaredMethods").asBoolean()).as(body + " methods").isTrue();
            assertThat(reflection.get(body).path("allDeclaredFields").asBoolean()).as(body + " fields").isTrue();
        }
    }

    @Test
    void clientConfigurationIsRegistered() {
        assertThat(reflection).containsKeys(
                "org.apache.rocketmq.client.ClientConfig",
                "org.apache.rocketmq.client.producer.DefaultMQProducer",
                "org.apache.rocketmq.client.producer.TransactionMQProducer",
                "org.apache.rocketmq.client.consumer.DefaultMQPushConsumer",
                "org.apache.rocketmq.remoting.netty.NettyClientConfig",
                "org.apache.rocketmq.remoting.netty.NettyEncoder");
    }

    @Test
    void rocketMQLogsThroughTheExtensionsProviderWithoutLogback() {
        assertThat(resourceConfig).contains(
                "META-INF/services/org.apache.rocketmq.logging.org.slf4j.spi.SLF4JServiceProvider");
        assertThat(reflection).containsKey("dev.orderflow.rocketmq.runtime.logging.RocketMQLogProvider");
        assertThat(resourceConfig).as("RocketMQ's logback is left out: nothing of it to register")
                .doesNotContain("rmq.client.logback.xml", "rmq.tools.logback.xml", "rmq.broker.logback.xml",
                        "META-INF/services/org.apache.rocketmq.logging.ch.qos.logback.classic.spi.Configurator");
        assertThat(reflection).doesNotContainKeys(
                "org.apache.rocketmq.logging.ch.qos.logback.classic.spi.LogbackServiceProvider",
                "org.apache.rocketmq.common.logging.DefaultJoranConfiguratorExt");
    }

    @Test
    void clientIsInitializedAtRunTime() {
        assertThat(featureClass).contains("org.apache.rocketmq", "io.github.aliyunmq", "com.alibaba.fastjson");
    }

    private static byte[] read(ZipFile jar, String entryName) throws IOException {
        ZipEntry entry = jar.getEntry(entryName);
        assertThat(entry).as(entryName + " in " + jar.getName()).isNotNull();
        try (InputStream in = jar.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }
}
