package dev.orderflow.rest.problem;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Locale;

/** Whether an error means the database is out of reach: the one rule every service answers 503 by. */
public final class DatabaseErrors {

    private DatabaseErrors() {
    }

    /**
     * Connection refused/lost (SQLState class 08) or no connection from the pool in time, anywhere
     * in the cause chain.
     *
     * <p>Not by exception class alone: MariaDB Connector/J throws {@link SQLTransientConnectionException}
     * for every SQLState class it does not know, e.g. {@code 45000} of a trigger's SIGNAL, and
     * Hibernate turns that into a {@code JDBCConnectionException}; such an error is the statement's
     * fault, not an outage.
     */
    public static boolean isUnavailable(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (!(c instanceof SQLException sql)) {
                continue;
            }
            if (hasStateClass(sql, "08") || sql instanceof SQLNonTransientConnectionException
                    || (sql instanceof SQLTransientConnectionException && sql.getSQLState() == null)) {
                return true;
            }
            // Agroal: "Sorry, acquisition timeout!", "Acquisition timeout while waiting for new connection".
            if (String.valueOf(sql.getMessage()).toLowerCase(Locale.ROOT).contains("acquisition timeout")) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code sql}'s SQLState is of the class {@code stateClass}, e.g. {@code 08} (connection). */
    public static boolean hasStateClass(SQLException sql, String stateClass) {
        return sql.getSQLState() != null && sql.getSQLState().startsWith(stateClass);
    }
}
