package dev.orderflow.sql;

import java.sql.SQLException;

/**
 * A {@link SQLException} from {@link BatchSql}'s datasource overloads, unchecked so that it can leave
 * handlers and transaction lambdas; the driver's exception (error code, SQL state) is the cause,
 * where the pipeline's and the REST layer's cause-chain checks find it.
 */
public class UncheckedSQLException extends RuntimeException {

    public UncheckedSQLException(SQLException cause) {
        super(cause.getMessage(), cause);
    }

    @Override
    public synchronized SQLException getCause() {
        return (SQLException) super.getCause();
    }
}
