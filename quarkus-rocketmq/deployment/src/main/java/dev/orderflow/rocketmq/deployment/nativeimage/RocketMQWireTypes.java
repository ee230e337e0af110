package dev.orderflow.rocketmq.deployment.nativeimage;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.ClassType;
import org.jboss.jandex.DotName;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

/**
 * Finds, in an index of the RocketMQ client jars, the classes the remoting client reads or
 * writes reflectively. Pure index analysis, no build items, so it can be tested on its own.
 *
 * <ul>
 * <li>Protocol headers: every {@code CommandCustomHeader}. {@code RemotingCommand} writes and reads
 * their fields reflectively ({@code getDeclaredFields}, {@code newInstance}).</li>
 * <li>Wire bodies: every {@code RemotingSerializable} plus {@code RemotingCommand} itself (its JSON
 * header form), and everything reachable from them through fields, getters and setters inside
 * the RocketMQ namespace (route data, queue data, subscription data, enums). fastjson 1 reads and
 * writes them as Java beans.</li>
 * <li>Client configuration: {@code ClientConfig} and its subclasses (producers, consumers, the admin
 * client) and the Netty client config. {@code MixAll.object2Properties} reads their declared fields
 * for consumer running info; {@code properties2Object} calls their setters.</li>
 * <li>Netty handlers: Netty checks handler methods for {@code @Skip} reflectively.</li>
 * </ul>
 */
public final class RocketMQWireTypes {

    public static final String ROCKETMQ_PACKAGE_PREFIX = "org.apache.rocketmq.";

    static final DotName COMMAND_CUSTOM_HEADER = DotName.createSimple("org.apache.rocketmq.remoting.CommandCustomHeader");
    static final DotName REMOTING_SERIALIZABLE = DotName
            .createSimple("org.apache.rocketmq.remoting.protocol.RemotingSerializable");
    static final DotName REMOTING_COMMAND = DotName.createSimple("org.apache.rocketmq.remoting.protocol.RemotingCommand");
    static final DotName CLIENT_CONFIG = DotName.createSimple("org.apache.rocketmq.client.ClientConfig");
    static final List<DotName> OTHER_CONFIG_CLASSES = List.of(
            DotName.createSimple("org.apache.rocketmq.remoting.netty.NettyClientConfig"));

    private static final String NETTY_CHANNEL_PACKAGE = "io.netty.channel.";
    private static final String NETTY_HANDLER_PACKAGE = "io.netty.handler.";

    private final IndexView index;

    public RocketMQWireTypes(IndexView index) {
        this.index = index;
    }

    /** Concrete and abstract implementations of {@code CommandCustomHeader}, by name. */
    public Set<String> protocolHeaders() {
        Set<String> names = new TreeSet<>();
        for (ClassInfo header : index.getAllKnownImplementors(COMMAND_CUSTOM_HEADER)) {
            addWithIndexedSuperclasses(header, names);
        }
        return names;
    }

    /**
     * {@code RemotingSerializable} subclasses, {@code RemotingCommand}, and the closure of RocketMQ
     * types reachable from them through bean properties.
     */
    public Set<String> wireBodies() {
        Deque<DotName> pending = new ArrayDeque<>();
        index.getAllKnownSubclasses(REMOTING_SERIALIZABLE).forEach(c -> pending.add(c.name()));
        pending.add(REMOTING_SERIALIZABLE);
        pending.add(REMOTING_COMMAND);
        Set<String> reached = new TreeSet<>();
        while (!pending.isEmpty()) {
            DotName name = pending.poll();
            ClassInfo type = index.getClassByName(name);
            if (type == null || !reached.add(name.toString())) {
                continue;
            }
            if (type.superName() != null) {
                enqueueRocketMQTypes(ClassType.create(type.superName()), pending);
            }
            for (FieldInfo field : type.fields()) {
                if (!java.lang.reflect.Modifier.isStatic(field.flags())) {
                    enqueueRocketMQTypes(field.type(), pending);
                }
            }
            for (MethodInfo method : type.methods()) {
                if (isGetter(method)) {
                    enqueueRocketMQTypes(method.returnType(), pending);
                } else if (isSetter(method)) {
                    enqueueRocketMQTypes(method.parameterType(0), pending);
                }
            }
        }
        return reached;
    }

    /** {@code ClientConfig} and its subclasses plus the Netty client configuration. */
    public Set<String> clientConfiguration() {
        Set<String> names = new TreeSet<>();
        ClassInfo clientConfig = index.getClassByName(CLIENT_CONFIG);
        if (clientConfig != null) {
            names.add(clientConfig.name().toString());
        }
        index.getAllKnownSubclasses(CLIENT_CONFIG).forEach(c -> names.add(c.name().toString()));
        for (DotName other : OTHER_CONFIG_CLASSES) {
            if (index.getClassByName(other) != null) {
                names.add(other.toString());
            }
        }
        return names;
    }

    /**
     * RocketMQ classes that extend a Netty channel handler. Jandex cannot follow the hierarchy
     * through Netty (not indexed), so this walks each class's superclasses until it leaves the
     * index and looks at where it lands.
     */
    public Set<String> nettyHandlers() {
        Set<String> names = new TreeSet<>();
        for (ClassInfo candidate : index.getKnownClasses()) {
            if (!candidate.name().toString().startsWith(ROCKETMQ_PACKAGE_PREFIX)) {
                continue;
            }
            if (extendsNettyHandler(candidate)) {
                names.add(candidate.name().toString());
            }
        }
        return names;
    }

    private boolean extendsNettyHandler(ClassInfo type) {
        ClassInfo current = type;
        while (current != null) {
            for (DotName iface : current.interfaceNames()) {
                if (isNettyHandlerType(iface)) {
                    return true;
                }
            }
            DotName superName = current.superName();
            if (superName == null) {
                return false;
            }
            if (isNettyHandlerType(superName)) {
                return true;
            }
            current = index.getClassByName(superName);
        }
        return false;
    }

    private static boolean isNettyHandlerType(DotName name) {
        String n = name.toString();
        return (n.startsWith(NETTY_CHANNEL_PACKAGE) || n.startsWith(NETTY_HANDLER_PACKAGE))
                && (n.endsWith("Handler") || n.endsWith("HandlerAdapter") || n.endsWith("Decoder")
                        || n.endsWith("Encoder") || n.endsWith("Initializer") || n.endsWith("Codec"));
    }

    private void addWithIndexedSuperclasses(ClassInfo type, Set<String> names) {
        ClassInfo current = type;
        while (current != null && names.add(current.name().toString())) {
            DotName superName = current.superName();
            current = superName == null ? null : index.getClassByName(superName);
        }
    }

    private static void enqueueRocketMQTypes(Type type, Deque<DotName> pending) {
        switch (type.kind()) {
            case CLASS -> {
                if (type.name().toString().startsWith(ROCKETMQ_PACKAGE_PREFIX)) {
                    pending.add(type.name());
                }
            }
            case PARAMETERIZED_TYPE -> {
                enqueueRocketMQTypes(ClassType.create(type.name()), pending);
                type.asParameterizedType().arguments().forEach(argument -> enqueueRocketMQTypes(argument, pending));
            }
            case ARRAY -> enqueueRocketMQTypes(type.asArrayType().elementType(), pending);
            case WILDCARD_TYPE -> enqueueRocketMQTypes(type.asWildcardType().extendsBound(), pending);
            default -> {
                // primitives, type variables and void carry no RocketMQ class of their own
            }
        }
    }

    private static boolean isGetter(MethodInfo method) {
        return !java.lang.reflect.Modifier.isStatic(method.flags()) && method.parametersCount() == 0
                && method.returnType().kind() != Type.Kind.VOID
                && (method.name().startsWith("get") || method.name().startsWith("is"));
    }

    private static boolean isSetter(MethodInfo method) {
        return !java.lang.reflect.Modifier.isStatic(method.flags()) && method.parametersCount() == 1
                && method.name().startsWith("set");
    }
}
