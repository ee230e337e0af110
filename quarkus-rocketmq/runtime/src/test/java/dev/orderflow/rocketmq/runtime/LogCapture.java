package dev.orderflow.rocketmq.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import org.jboss.logmanager.ExtLogRecord;

/**
 * The records of one log category, from {@link #of} until {@link #close}. Surefire runs with the
 * JBoss LogManager, whose loggers are java.util.logging's, so a handler on the category reads what
 * JBoss Logging (and what routes into it) wrote there.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger category;

    private LogCapture(Logger category) {
        this.category = category;
    }

    /** Captures {@code category}'s records at {@code level} and above. */
    public static LogCapture of(String category, Level level) {
        LogCapture capture = new LogCapture(Logger.getLogger(category));
        capture.category.addHandler(capture);
        capture.category.setLevel(level);
        return capture;
    }

    /**
     * A record's message as written: its parameters filled in (a typed message, like the
     * connector's {@code ConnectorLog}, keeps them apart in the record).
     */
    public static String formatted(LogRecord logRecord) {
        return logRecord instanceof ExtLogRecord ext ? ext.getFormattedMessage()
                : new SimpleFormatter().formatMessage(logRecord);
    }

    /** The records captured so far, in the order they were written. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** Sets the category's level (its records below it are no longer written, nor captured). */
    public void level(Level level) {
        category.setLevel(level);
    }

    @Override
    public void publish(LogRecord logRecord) {
        records.add(logRecord);
    }

    @Override
    public void flush() {
    }

    /** Stops capturing and gives the category its inherited level back. */
    @Override
    public void close() {
        category.removeHandler(this);
        category.setLevel(null);
    }
}
