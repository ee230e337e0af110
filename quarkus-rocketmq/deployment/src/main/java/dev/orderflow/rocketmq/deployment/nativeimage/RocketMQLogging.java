package dev.orderflow.rocketmq.deployment.nativeimage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import dev.orderflow.rocketmq.runtime.logging.RocketMQLogProvider;
import io.quarkus.paths.PathTree;

/**
 * What RocketMQ's own logging needs in a native image.
 *
 * <p>The client logs through a shaded SLF4J ({@code org.apache.rocketmq.logging.org.slf4j}) whose
 * provider is found with {@link java.util.ServiceLoader}: the extension's {@code RocketMQLogProvider}
 * (into JBoss Logging), which needs nothing more. Only when an application puts RocketMQ's shaded
 * logback 1.3 back on its class path does the rest of this apply. Logback is then
 * configured by {@code DefaultJoranConfiguratorExt} (rocketmq-common, also a service) from the
 * first {@code rmq.*.logback.xml} it finds on the class path; Joran instantiates the classes named
 * in that XML (after rewriting {@code ch.qos.logback} to the shaded package), calls their setters
 * reflectively, converts values with static {@code valueOf(String)} methods, and the pattern
 * layout instantiates its converters by class name.
 */
public final class RocketMQLogging {

    /** The configuration files DefaultJoranConfiguratorExt looks for, in its order. */
    public static final List<String> CONFIGURATION_FILES = List.of(
            "rmq.logback-test.xml",
            "rmq.logback.xml",
            "rmq.proxy.logback.xml",
            "rmq.broker.logback.xml",
            "rmq.namesrv.logback.xml",
            "rmq.controller.logback.xml",
            "rmq.tools.logback.xml",
            "rmq.client.logback.xml");

    static final String LOGBACK_PACKAGE = "ch.qos.logback.";
    static final String SHADED_LOGBACK_PACKAGE = "org.apache.rocketmq.logging.ch.qos.logback.";

    /** Service interfaces RocketMQ's logging and the client look up with ServiceLoader, whether or not logback is there. */
    private static final List<String> SERVICE_INTERFACES = List.of(
            "org.apache.rocketmq.logging.org.slf4j.spi.SLF4JServiceProvider",
            "org.apache.rocketmq.common.namesrv.TopAddressing");

    /**
     * Logback's configurator service, which RocketMQ's logback looks up. rocketmq-common names its
     * configurator for it, a class extending logback's: only registered where logback is there.
     */
    private static final String LOGBACK_CONFIGURATOR = SHADED_LOGBACK_PACKAGE + "classic.spi.Configurator";

    /** Classes Joran uses when an element names no class (DefaultNestedComponentRules). */
    static final List<String> DEFAULT_NESTED_COMPONENTS = List.of(
            SHADED_LOGBACK_PACKAGE + "classic.PatternLayout",
            SHADED_LOGBACK_PACKAGE + "classic.encoder.PatternLayoutEncoder");

    static final DotName CONVERTER = DotName.createSimple(SHADED_LOGBACK_PACKAGE + "core.pattern.Converter");

    private RocketMQLogging() {
    }

    /** The class file of RocketMQ's shaded logback provider (io.github.aliyunmq:rocketmq-logback-classic). */
    static final String LOGBACK_PROVIDER_CLASS_FILE = RocketMQLogProvider.LOGBACK_PROVIDER.replace('.', '/') + ".class";

    /** The service interfaces to register the class path's providers of. */
    public static List<String> serviceInterfaces(boolean logbackPresent) {
        if (!logbackPresent) {
            return SERVICE_INTERFACES;
        }
        List<String> interfaces = new ArrayList<>(SERVICE_INTERFACES);
        interfaces.add(LOGBACK_CONFIGURATOR);
        return interfaces;
    }

    /**
     * Whether RocketMQ's shaded logback is on the application's runtime class path. The extension
     * leaves it out (RocketMQ logs into JBoss Logging); an application that adds it back, e.g. with
     * a broker, logs through it as RocketMQ does by default.
     */
    public static boolean logbackPresent(List<PathTree> classPath) {
        return classPath.stream().anyMatch(tree -> tree.contains(LOGBACK_PROVIDER_CLASS_FILE));
    }

    /**
     * The configuration files among {@link #CONFIGURATION_FILES} present on the application's
     * runtime class path {@code classPath} (its own resources first, then its dependencies), in
     * search order, each mapped to the class names its {@code class} and {@code converterClass}
     * attributes name.
     */
    public static Map<String, Set<String>> presentConfigurationFiles(List<PathTree> classPath) {
        Map<String, Set<String>> present = new LinkedHashMap<>();
        for (String name : CONFIGURATION_FILES) {
            for (PathTree tree : classPath) {
                if (!tree.contains(name)) {
                    continue;
                }
                Set<String> classes = tree.apply(name, visit -> {
                    try (InputStream in = Files.newInputStream(visit.getPath())) {
                        return classesNamedIn(in, visit.getUrl());
                    } catch (IOException e) {
                        throw new UncheckedIOException("Cannot read RocketMQ logging configuration " + visit.getUrl(), e);
                    }
                });
                present.computeIfAbsent(name, n -> new TreeSet<>()).addAll(classes);
            }
        }
        return present;
    }

    /**
     * Classes named by {@code class} and {@code converterClass} attributes of a logback
     * configuration, rewritten to the shaded logback package the way RocketMQ's
     * JoranConfiguratorExt does. JDK classes (e.g. {@code java.nio.charset.Charset}) are left out:
     * Joran converts those from text without reflection.
     */
    static Set<String> classesNamedIn(InputStream configuration, URL source) throws IOException {
        Set<String> names = new TreeSet<>();
        collectClassAttributes(configuration, source, names);
        return names;
    }

    /**
     * Logback classes Joran and the pattern layout create by name: the defaults for nested
     * components, every converter, and every class with a static {@code valueOf(String)}
     * (Joran's text-to-value conversion, e.g. {@code FileSize} for {@code maxFileSize}).
     */
    public static Set<String> instantiatedByName(IndexView index) {
        Set<String> names = new TreeSet<>(DEFAULT_NESTED_COMPONENTS);
        index.getAllKnownSubclasses(CONVERTER).forEach(c -> names.add(c.name().toString()));
        for (ClassInfo type : index.getKnownClasses()) {
            if (type.name().toString().startsWith(SHADED_LOGBACK_PACKAGE) && hasStaticValueOfString(type)) {
                names.add(type.name().toString());
            }
        }
        return names;
    }

    private static boolean hasStaticValueOfString(ClassInfo type) {
        for (MethodInfo method : type.methods()) {
            if (method.name().equals("valueOf") && java.lang.reflect.Modifier.isStatic(method.flags())
                    && method.parametersCount() == 1
                    && method.parameterType(0).kind() == Type.Kind.CLASS
                    && method.parameterType(0).name().toString().equals(String.class.getName())) {
                return true;
            }
        }
        return false;
    }

    private static void collectClassAttributes(InputStream in, URL source, Set<String> names) throws IOException {
        NodeList elements;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            elements = factory.newDocumentBuilder().parse(in).getElementsByTagName("*");
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("Cannot parse RocketMQ logging configuration " + source, e);
        }
        for (int i = 0; i < elements.getLength(); i++) {
            Element element = (Element) elements.item(i);
            addClassName(element.getAttribute("class"), names);
            addClassName(element.getAttribute("converterClass"), names);
        }
    }

    private static void addClassName(String attribute, Set<String> names) {
        String name = attribute.trim();
        if (name.isEmpty() || name.startsWith("java.")) {
            return;
        }
        names.add(name.startsWith(LOGBACK_PACKAGE) ? SHADED_LOGBACK_PACKAGE + name.substring(LOGBACK_PACKAGE.length())
                : name);
    }
}
