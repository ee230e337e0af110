package dev.orderflow.rocketmq.runtime.logging;

import org.apache.rocketmq.logging.org.slf4j.Marker;
import org.apache.rocketmq.logging.org.slf4j.event.Level;
import org.apache.rocketmq.logging.org.slf4j.helpers.LegacyAbstractLogger;
import org.apache.rocketmq.logging.org.slf4j.helpers.MessageFormatter;
import org.jboss.logging.Logger;

/**
 * One of RocketMQ's loggers, writing to JBoss Logging.
 *
 * <p>RocketMQ names its loggers after its classes ({@code org.apache.rocketmq.client.…}) or with
 * bare names ({@code RocketmqClient}, {@code RocketmqRemoting}, …). A bare name is logged under
 * {@value #CATEGORY_PREFIX}{@code <name>}, so that the one category {@code org.apache.rocketmq}
 * sets the level of everything RocketMQ logs; other names (Netty's, whose logging the client
 * routes through RocketMQ's) are kept.
 */
final class JBossLoggingLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    /** The category of RocketMQ's bare logger names. */
    static final String CATEGORY_PREFIX = "org.apache.rocketmq.";

    private final transient Logger delegate;

    JBossLoggingLogger(String name) {
        this.name = name;
        this.delegate = Logger.getLogger(category(name));
    }

    /** The JBoss Logging category of a RocketMQ logger name. */
    static String category(String name) {
        return name.indexOf('.') < 0 ? CATEGORY_PREFIX + name : name;
    }

    @Override
    public boolean isTraceEnabled() {
        return delegate.isTraceEnabled();
    }

    @Override
    public boolean isDebugEnabled() {
        return delegate.isDebugEnabled();
    }

    @Override
    public boolean isInfoEnabled() {
        return delegate.isInfoEnabled();
    }

    @Override
    public boolean isWarnEnabled() {
        return delegate.isEnabled(Logger.Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return delegate.isEnabled(Logger.Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
            Throwable throwable) {
        // The pattern uses SLF4J's {} placeholders: formatted here, handed over as a finished message.
        String message = MessageFormatter.basicArrayFormat(messagePattern, arguments);
        delegate.log(jbossLevel(level), message, throwable);
    }

    private static Logger.Level jbossLevel(Level level) {
        return switch (level) {
            case ERROR -> Logger.Level.ERROR;
            case WARN -> Logger.Level.WARN;
            case INFO -> Logger.Level.INFO;
            case DEBUG -> Logger.Level.DEBUG;
            case TRACE -> Logger.Level.TRACE;
        };
    }
}
