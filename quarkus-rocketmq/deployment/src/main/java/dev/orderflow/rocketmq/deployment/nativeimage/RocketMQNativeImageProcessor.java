package dev.orderflow.rocketmq.deployment.nativeimage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.Indexer;
import org.jboss.jandex.Type;
import org.jboss.logging.Logger;

import dev.orderflow.rocketmq.runtime.graal.FastjsonNativeRecorder;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.RuntimeInitializedClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.RuntimeInitializedPackageBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ServiceProviderBuildItem;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.deployment.pkg.steps.NativeOrNativeSourcesBuild;
import io.quarkus.deployment.util.ServiceUtil;
import io.quarkus.maven.dependency.ResolvedDependency;
import io.quarkus.paths.PathTree;

/**
 * Native-image registration for the Apache RocketMQ remoting client. Runs only for a native
 * build or its sources step. What is registered and why: quarkus-rocketmq/NATIVE.md.
 */
class RocketMQNativeImageProcessor {

    private static final Logger LOG = Logger.getLogger(RocketMQNativeImageProcessor.class);

    /** Group ids whose runtime jars make up the RocketMQ client and its shaded logging. */
    static final Set<String> CLIENT_GROUP_IDS = Set.of("org.apache.rocketmq", "io.github.aliyunmq");

    /**
     * Packages initialized when the application starts, not while the image is built. Nearly every
     * RocketMQ class holds a static logger, and creating one configures the shaded logback (an
     * AsyncAppender thread, open log files); others capture system properties at class init
     * (RemotingCommand: rocketmq.remoting.version and the serialize type), the host address and
     * process id (MessageClientIDSetter: message id prefix) or random seeds. None of that may be
     * frozen into the image. fastjson 1 probes optional libraries and holds an ASM class loader in
     * static state.
     */
    static final List<String> RUNTIME_INITIALIZED_PACKAGES = List.of(
            "org.apache.rocketmq",
            "io.github.aliyunmq",
            "com.alibaba.fastjson");

    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    RocketMQClientIndexBuildItem indexClientJars(CurateOutcomeBuildItem curateOutcome) {
        Indexer indexer = new Indexer();
        List<String> indexed = new ArrayList<>();
        for (ResolvedDependency dependency : curateOutcome.getApplicationModel().getRuntimeDependencies()) {
            if (!CLIENT_GROUP_IDS.contains(dependency.getGroupId())) {
                continue;
            }
            dependency.getContentTree().walk(visit -> {
                if (visit.getRelativePath("/").endsWith(".class")) {
                    try (InputStream in = Files.newInputStream(visit.getPath())) {
                        indexer.index(in);
                    } catch (IOException e) {
                        throw new UncheckedIOException("Cannot index " + visit.getPath() + " of " + dependency.toCompactCoords(),
                                e);
                    }
                }
            });
            indexed.add(dependency.toCompactCoords());
        }
        IndexView index = indexer.complete();
        LOG.debugf("RocketMQ native: indexed %d classes from %s", index.getKnownClasses().size(), indexed);
        return new RocketMQClientIndexBuildItem(index, indexed);
    }

    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    void registerRemotingClassesForReflection(RocketMQClientIndexBuildItem clientIndex,
            BuildProducer<ReflectiveClassBuildItem> reflectiveClasses) {
        RocketMQWireTypes wireTypes = new RocketMQWireTypes(clientIndex.index());

        Set<String> headers = wireTypes.protocolHeaders();
        reflectiveClasses.produce(ReflectiveClassBuildItem.builder(headers)
                .constructors().fields()
                .reason("RocketMQ protocol headers: RemotingCommand reads and writes their fields reflectively")
                .build());

        Set<String> bodies = wireTypes.wireBodies();
        reflectiveClasses.produce(ReflectiveClassBuildItem.builder(bodies)
                .constructors().methods().fields()
                .reason("RocketMQ wire bodies: fastjson (de)serializes them as Java beans")
                .build());

        Set<String> configuration = wireTypes.clientConfiguration();
        reflectiveClasses.produce(ReflectiveClassBuildItem.builder(configuration)
                .methods().fields()
                .reason("RocketMQ client configuration: MixAll.object2Properties/properties2Object")
                .build());

        Set<String> handlers = wireTypes.nettyHandlers();
        reflectiveClasses.produce(ReflectiveClassBuildItem.builder(handlers)
                .methods()
                .reason("RocketMQ Netty handlers: Netty looks up handler methods for @Skip")
                .build());

        LOG.debugf("RocketMQ native: registered for reflection %d protocol headers, %d wire body classes, "
                + "%d client configuration classes, %d Netty handlers", headers.size(), bodies.size(),
                configuration.size(), handlers.size());
    }

    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    void registerLogging(RocketMQClientIndexBuildItem clientIndex, CurateOutcomeBuildItem curateOutcome,
            BuildProducer<NativeImageResourceBuildItem> resources,
            BuildProducer<ServiceProviderBuildItem> serviceProviders,
            BuildProducer<ReflectiveClassBuildItem> reflectiveClasses) {
        List<PathTree> classPath = runtimeClassPath(curateOutcome);
        // Without RocketMQ's logback (left out by this extension: RocketMQLogProvider logs into JBoss
        // Logging) its configurator, its configuration files and the classes they name are left out too.
        boolean logback = RocketMQLogging.logbackPresent(classPath);

        int providerCount = 0;
        for (String serviceInterface : RocketMQLogging.serviceInterfaces(logback)) {
            Set<String> providers = serviceProviders(classPath, serviceInterface);
            if (!providers.isEmpty()) {
                serviceProviders.produce(new ServiceProviderBuildItem(serviceInterface, List.copyOf(providers)));
                providerCount += providers.size();
                LOG.debugf("RocketMQ native: service %s -> %s", serviceInterface, providers);
            }
        }

        Map<String, Set<String>> configurationFiles = Map.of();
        Set<String> logbackClasses = new TreeSet<>();
        if (logback) {
            configurationFiles = RocketMQLogging.presentConfigurationFiles(classPath);
            if (!configurationFiles.isEmpty()) {
                resources.produce(new NativeImageResourceBuildItem(List.copyOf(configurationFiles.keySet())));
            }
            configurationFiles.values().forEach(logbackClasses::addAll);
            logbackClasses.addAll(RocketMQLogging.instantiatedByName(clientIndex.index()));
            reflectiveClasses.produce(ReflectiveClassBuildItem.builder(logbackClasses)
                    .constructors().methods()
                    .reason("RocketMQ shaded logback: Joran and the pattern layout create these by name")
                    .build());
        }

        LOG.debugf("RocketMQ native: registered %d logging configuration resources %s, %d service providers, "
                + "%d logback classes for reflection", configurationFiles.size(), configurationFiles.keySet(), providerCount,
                logbackClasses.size());
    }

    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    void initializeClientAtRuntime(CombinedIndexBuildItem combinedIndex,
            BuildProducer<RuntimeInitializedPackageBuildItem> runtimeInitializedPackages,
            BuildProducer<RuntimeInitializedClassBuildItem> runtimeInitializedClasses) {
        RUNTIME_INITIALIZED_PACKAGES.forEach(p -> runtimeInitializedPackages.produce(new RuntimeInitializedPackageBuildItem(p)));

        // A class initialized at build time must not initialize a runtime-initialized one: any
        // application or extension class holding RocketMQ state in a static field follows the client.
        Set<String> holders = classesWithStaticRocketMQFields(combinedIndex.getIndex());
        holders.forEach(c -> runtimeInitializedClasses.produce(new RuntimeInitializedClassBuildItem(c)));

        LOG.debugf("RocketMQ native: runtime-initialized packages %s and %d classes with static RocketMQ fields %s",
                RUNTIME_INITIALIZED_PACKAGES, holders.size(), holders);
    }

    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    @Record(ExecutionTime.RUNTIME_INIT)
    ServiceStartBuildItem useReflectiveFastjson(FastjsonNativeRecorder recorder) {
        recorder.useReflectiveSerializers();
        // Ordered before the startup event, hence before any channel creates a client.
        return new ServiceStartBuildItem("rocketmq-native-fastjson");
    }

    /** The application's own classes and resources, then its runtime dependencies: what a native image contains. */
    private static List<PathTree> runtimeClassPath(CurateOutcomeBuildItem curateOutcome) {
        List<PathTree> classPath = new ArrayList<>();
        classPath.add(curateOutcome.getApplicationModel().getAppArtifact().getContentTree());
        curateOutcome.getApplicationModel().getRuntimeDependencies().forEach(d -> classPath.add(d.getContentTree()));
        return classPath;
    }

    /** Providers of {@code serviceInterface} named in META-INF/services files on {@code classPath}. */
    private static Set<String> serviceProviders(List<PathTree> classPath, String serviceInterface) {
        String descriptor = ServiceProviderBuildItem.SPI_ROOT + serviceInterface;
        Set<String> providers = new TreeSet<>();
        for (PathTree tree : classPath) {
            if (tree.contains(descriptor)) {
                providers.addAll(tree.apply(descriptor, visit -> {
                    try {
                        return ServiceUtil.classNamesNamedIn(visit.getPath());
                    } catch (IOException e) {
                        throw new UncheckedIOException("Cannot read " + visit.getUrl(), e);
                    }
                }));
            }
        }
        return providers;
    }

    static Set<String> classesWithStaticRocketMQFields(IndexView index) {
        Set<String> holders = new TreeSet<>();
        for (ClassInfo type : index.getKnownClasses()) {
            if (type.name().toString().startsWith(RocketMQWireTypes.ROCKETMQ_PACKAGE_PREFIX)) {
                continue;
            }
            for (FieldInfo field : type.fields()) {
                if (java.lang.reflect.Modifier.isStatic(field.flags()) && mentionsRocketMQ(field.type())) {
                    holders.add(type.name().toString());
                    break;
                }
            }
        }
        return holders;
    }

    private static boolean mentionsRocketMQ(Type type) {
        return switch (type.kind()) {
            case CLASS -> type.name().toString().startsWith(RocketMQWireTypes.ROCKETMQ_PACKAGE_PREFIX);
            case PARAMETERIZED_TYPE -> type.name().toString().startsWith(RocketMQWireTypes.ROCKETMQ_PACKAGE_PREFIX)
                    || type.asParameterizedType().arguments().stream().anyMatch(RocketMQNativeImageProcessor::mentionsRocketMQ);
            case ARRAY -> mentionsRocketMQ(type.asArrayType().elementType());
            default -> false;
        };
    }
}
