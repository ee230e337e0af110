package dev.orderflow.order.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

import jakarta.transaction.RollbackException;
import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.service.OrderOutcomeUnknownException;
import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rocketmq.RocketMQTransactionRolledBackException;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;

/**
 * How the outcomes of {@code RocketMQTransactions.execute} reach the client: the exception types of
 * the extension and the SQL errors of MariaDB Connector/J, mapped without a running application
 * (the database and broker cases that can be produced for real are in DatabaseDownTest,
 * BrokerDownTest and OrderMessagingTest).
 */
class ProblemMappersTest {

    private static final int RETRY_AFTER = 7;

    private final ProblemMappers mappers = new ProblemMappers(new ObjectMapper(), config());

    private static OrderServiceConfig config() {
        OrderServiceConfig.Messaging messaging = (OrderServiceConfig.Messaging) Proxy.newProxyInstance(
                ProblemMappersTest.class.getClassLoader(), new Class<?>[] { OrderServiceConfig.Messaging.class },
                (proxy, method, args) -> method.getName().equals("retryAfterSeconds") ? RETRY_AFTER : null);
        return (OrderServiceConfig) Proxy.newProxyInstance(ProblemMappersTest.class.getClassLoader(),
                new Class<?>[] { OrderServiceConfig.class },
                (proxy, method, args) -> method.getName().equals("messaging") ? messaging : null);
    }

    private static RocketMQTransactionRolledBackException rolledBack(Throwable cause) {
        return new RocketMQTransactionRolledBackException("rolled back", cause);
    }

    private static void assertUnavailable(Response response, String kind) {
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo(String.valueOf(RETRY_AFTER));
        assertThat(response.getMediaType().toString()).isEqualTo(Problem.MEDIA_TYPE);
        assertThat((String) response.getEntity()).contains("/problems/" + kind).contains("\"status\":503");
    }

    @Test
    void unknownOutcomeIs503WithRetryAfterNamingTheOrder() {
        Response response = mappers.outcomeUnknown(new OrderOutcomeUnknownException("01ORDER", OrderEventType.CREATE,
                new RocketMQTransactionUnknownException("commit unclear", new IllegalStateException("lost"))));

        assertUnavailable(response, "outcome-unknown");
        assertThat((String) response.getEntity()).contains("01ORDER").doesNotContain("IllegalStateException");
    }

    @Test
    void unknownOutcomeWithoutOrderIs503WithRetryAfter() {
        assertUnavailable(mappers.outcomeUnknown(new RocketMQTransactionUnknownException("commit unclear", null)),
                "outcome-unknown");
    }

    @Test
    void rollbackByTheTransactionManagerIsRetryable() {
        assertUnavailable(mappers.rolledBack(rolledBack(new RollbackException("ARJUNA016102: timed out"))),
                "transaction-rolled-back");
    }

    @Test
    void rollbackForADeadlockIsRetryable() {
        RollbackException atCommit = new RollbackException("commit failed");
        atCommit.initCause(new SQLTransactionRollbackException("Deadlock found", "40001", 1213));
        assertUnavailable(mappers.rolledBack(rolledBack(atCommit)), "transaction-rolled-back");
    }

    @Test
    void rollbackBecauseTheDatabaseIsGoneIs503DatabaseUnavailable() {
        RollbackException atCommit = new RollbackException("commit failed");
        atCommit.initCause(new SQLNonTransientConnectionException("Socket fail to connect", "08000"));
        assertUnavailable(mappers.rolledBack(rolledBack(atCommit)), "database-unavailable");
    }

    @Test
    void rollbackForAConstraintIs500() {
        RollbackException atCommit = new RollbackException("commit failed");
        atCommit.initCause(new SQLIntegrityConstraintViolationException("Duplicate entry", "23000", 1062));
        Response response = mappers.rolledBack(rolledBack(atCommit));

        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(response.getHeaderString("Retry-After")).isNull();
        assertThat((String) response.getEntity()).contains("/problems/transaction-rolled-back");
    }

    @Test
    void rollbackForACheckedExceptionOfTheWorkIs500() {
        assertThat(mappers.rolledBack(rolledBack(new java.io.IOException("disk"))).getStatus()).isEqualTo(500);
    }

    /** Connector/J throws SQLTransientConnectionException for unknown SQLState classes, e.g. a trigger's SIGNAL. */
    @Test
    void signalledErrorIsNotAnOutage() {
        Throwable signal = new RuntimeException("could not execute statement",
                new SQLTransientConnectionException("forced insert failure", "45000", 1644));
        assertThat(mappers.unexpected(signal).getStatus()).isEqualTo(500);
    }

    @Test
    void refusedConnectionAndPoolTimeoutAreOutages() {
        assertUnavailable(mappers.unexpected(new RuntimeException(
                new SQLNonTransientConnectionException("Socket fail to connect", "08000"))), "database-unavailable");
        assertUnavailable(mappers.unexpected(new RuntimeException(new java.sql.SQLException("Sorry, acquisition timeout!"))),
                "database-unavailable");
    }
}
