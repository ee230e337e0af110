package dev.orderflow.rocketmq.runtime.logging;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.rocketmq.logging.org.slf4j.ILoggerFactory;
import org.apache.rocketmq.logging.org.slf4j.IMarkerFactory;
import org.apache.rocketmq.logging.org.slf4j.Logger;
import org.apache.rocketmq.logging.org.slf4j.helpers.BasicMDCAdapter;
import org.apache.rocketmq.logging.org.slf4j.helpers.BasicMarkerFactory;
import org.apache.rocketmq.logging.org.slf4j.spi.MDCAdapter;
import org.apache.rocketmq.logging.org.slf4j.spi.SLF4JServiceProvider;

/**
 * Provider of RocketMQ's shaded SLF4J ({@code org.apache.rocketmq.logging.org.slf4j}, found with
 * {@link java.util.ServiceLoader}) that hands RocketMQ's log records to JBoss Logging, so that they
 * are part of the application's log, with its format, handlers and levels.
 *
 * <p>The extension leaves RocketMQ's shaded logback out of the application's class path. With it,
 * RocketMQ configures logback from the first {@code rmq.*.logback.xml} on the class path
 * ({@code rmq.tools.logback.xml}, as the admin client is there) and writes to
 * {@code ~/logs/rocketmqlogs}, a file shared by every process of the user and outside the
 * application's log; its XML configuration also takes ~96 ms of the main thread at every start.
 *
 * <p>Where the shaded logback is on the class path after all (a broker in the same JVM, as in
 * tests and the local launcher, brings it), this provider hands everything to logback's own
 * provider instead, whichever of the two {@code ServiceLoader} lists first: there RocketMQ logs
 * through its logback as usual.
 */
public final class RocketMQLogProvider implements SLF4JServiceProvider {

    /** RocketMQ's logback provider, present with a broker on the class path. */
    public static final String LOGBACK_PROVIDER = "org.apache.rocketmq.logging.ch.qos.logback.classic.spi.LogbackServiceProvider";
    /** The SLF4J API version this provider implements (the shaded API's own). */
    private static final String API_VERSION = "2.0.99";

    private volatile ILoggerFactory loggerFactory;
    private volatile IMarkerFactory markerFactory;
    private volatile MDCAdapter mdcAdapter;

    @Override
    public void initialize() {
        SLF4JServiceProvider logback = logbackProvider();
        if (logback != null) {
            logback.initialize();
            loggerFactory = logback.getLoggerFactory();
            markerFactory = logback.getMarkerFactory();
            mdcAdapter = logback.getMDCAdapter();
            return;
        }
        ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
        loggerFactory = name -> loggers.computeIfAbsent(name, JBossLoggingLogger::new);
        markerFactory = new BasicMarkerFactory();
        mdcAdapter = new BasicMDCAdapter();
    }

    private static SLF4JServiceProvider logbackProvider() {
        try {
            Class<?> type = Class.forName(LOGBACK_PROVIDER, false, RocketMQLogProvider.class.getClassLoader());
            return (SLF4JServiceProvider) type.getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            return null;
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("RocketMQ's logback is on the class path but cannot be started", e);
        }
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggerFactory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markerFactory;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdcAdapter;
    }

    @Override
    public String getRequestedApiVersion() {
        return API_VERSION;
    }
}
