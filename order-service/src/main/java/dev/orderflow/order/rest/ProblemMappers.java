package dev.orderflow.order.rest;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;

import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.order.service.IdempotencyKeyReusedException;
import dev.orderflow.order.service.OrderAlreadyCancelledException;
import dev.orderflow.order.service.OrderFailedException;
import dev.orderflow.order.service.OrderNotFoundException;
import dev.orderflow.order.service.OrderOutcomeUnknownException;
import dev.orderflow.rest.problem.DatabaseErrors;
import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemResponses;
import dev.orderflow.rocketmq.RocketMQSendException;
import dev.orderflow.rocketmq.RocketMQTransactionRolledBackException;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;

/**
 * The order API's own problems (order not found or already cancelled, idempotency conflicts, broker
 * unavailable, transaction outcomes) and its answer to unexpected errors, with the order service's
 * Retry-After. Invalid input ({@code ProblemException}) and framework 4xx are answered by the shared
 * {@link dev.orderflow.rest.problem.ProblemMappers}; every body is {@code application/problem+json},
 * never with a stack trace.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    /** MariaDB ER_LOCK_WAIT_TIMEOUT and ER_LOCK_DEADLOCK. */
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int DEADLOCK = 1213;

    private final ObjectMapper objectMapper;
    private final int retryAfterSeconds;

    @Inject
    public ProblemMappers(ObjectMapper objectMapper, OrderServiceConfig config) {
        this.objectMapper = objectMapper;
        this.retryAfterSeconds = config.messaging().retryAfterSeconds();
    }

    @ServerExceptionMapper
    public Response notFound(OrderNotFoundException e) {
        return respond(Problem.of("order-not-found", "Order not found", 404, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response alreadyCancelled(OrderAlreadyCancelledException e) {
        return respond(Problem.of("order-already-cancelled", "Order already cancelled", 409, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response failed(OrderFailedException e) {
        return respond(Problem.of("order-failed", "Order failed", 409, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response keyReused(IdempotencyKeyReusedException e) {
        return respond(Problem.of("idempotency-key-reused", "Idempotency-Key reused with a different request", 422,
                e.getMessage()));
    }

    @ServerExceptionMapper
    public Response brokerUnavailable(RocketMQSendException e) {
        LOG.warnf("Broker unavailable, request refused: %s", e.getMessage());
        return unavailable("broker-unavailable", "Message broker unavailable",
                "The order could not be published; nothing was written. Retry later.");
    }

    /**
     * The commit ended unclearly: the change may have committed. Not an error of the client and
     * not final: the broker's check-back makes the message agree with the row, so 503 + Retry-After
     * and the order id to look up (or a retry with the same Idempotency-Key).
     */
    @ServerExceptionMapper
    public Response outcomeUnknown(OrderOutcomeUnknownException e) {
        LOG.warnf(e, "Outcome of the %s of order %s unknown; the broker's check-back settles it",
                e.eventType().name().toLowerCase(), e.orderId());
        return unavailable("outcome-unknown", "Outcome not known yet", "The database did not confirm the "
                + e.eventType().name().toLowerCase() + " of order " + e.orderId() + "; it is settled within seconds. "
                + "GET /orders/" + e.orderId() + " shows the result; a retry with the same Idempotency-Key is safe.");
    }

    /** As {@link #outcomeUnknown(OrderOutcomeUnknownException)}, for a change without an order id at hand. */
    @ServerExceptionMapper
    public Response outcomeUnknown(RocketMQTransactionUnknownException e) {
        LOG.warnf(e, "Local transaction outcome unknown; the broker's check-back settles it");
        return unavailable("outcome-unknown", "Outcome not known yet",
                "The database did not confirm the change; it is settled within seconds. Retry with the same "
                        + "Idempotency-Key to get the result.");
    }

    /**
     * The local transaction rolled back at commit (or the work threw a checked exception): nothing
     * was written and the message was discarded, so a retry is always safe. Transient causes
     * (database unreachable, deadlock, lock wait or transaction timeout) → 503 + Retry-After; any
     * other cause is a server fault → 500.
     */
    @ServerExceptionMapper
    public Response rolledBack(RocketMQTransactionRolledBackException e) {
        if (DatabaseErrors.isUnavailable(e)) {
            LOG.warnf("Database unavailable at commit, transaction rolled back: %s", e.getMessage());
            return unavailable("database-unavailable", "Database unavailable",
                    "The order database is unavailable; nothing was written. Retry later.");
        }
        if (isTransientRollback(e)) {
            LOG.warnf("Transaction rolled back for a transient reason: %s", e.getMessage());
            return unavailable("transaction-rolled-back", "Transaction rolled back",
                    "The change was rolled back (contention or timeout); nothing was written. Retry later.");
        }
        LOG.error("Transaction rolled back", e);
        return respond(Problem.of("transaction-rolled-back", "Transaction rolled back", 500,
                "The change was rolled back; nothing was written and nothing was published."));
    }

    /**
     * Supersedes the shared unexpected-error mapper (smaller priority value wins): the order
     * database's wording, this service's Retry-After, and a broker failure however it arrives.
     */
    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response unexpected(Throwable e) {
        if (DatabaseErrors.isUnavailable(e)) {
            LOG.warnf("Database unavailable, request refused: %s", e.getMessage());
            return unavailable("database-unavailable", "Database unavailable",
                    "The order database is unavailable; nothing was written. Retry later.");
        }
        if (e instanceof RocketMQSendException send) {
            return brokerUnavailable(send);
        }
        LOG.error("Unexpected error", e);
        return respond(Problem.of("internal-error", "Internal error", 500, "The request could not be processed."));
    }

    private Response unavailable(String kind, String title, String detail) {
        return ProblemResponses.retryAfter(objectMapper, Problem.of(kind, title, 503, detail), retryAfterSeconds);
    }

    private Response respond(Problem problem) {
        return ProblemResponses.of(objectMapper, problem);
    }

    /**
     * A rollback worth retrying: the first SQL error in the chain is transient (deadlock,
     * serialization failure, lock wait or statement timeout), or, with no SQL error, the
     * transaction manager rolled back on its own (transaction timeout).
     */
    static boolean isTransientRollback(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SQLException sql) {
                return sql instanceof SQLTransactionRollbackException || sql instanceof SQLTimeoutException
                        || DatabaseErrors.hasStateClass(sql, "40") || sql.getErrorCode() == LOCK_WAIT_TIMEOUT
                        || sql.getErrorCode() == DEADLOCK;
            }
        }
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof jakarta.transaction.RollbackException) {
                return true;
            }
        }
        return false;
    }
}
