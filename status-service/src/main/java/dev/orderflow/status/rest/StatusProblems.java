package dev.orderflow.status.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.rest.problem.ProblemResponses;
import dev.orderflow.status.reconciliation.ReconciliationException;
import dev.orderflow.status.service.OrderStatusNotFoundException;
import dev.orderflow.status.service.TooManyWaitersException;

/**
 * The status API's own problems; everything else (invalid input, framework 4xx, database down,
 * unexpected 500) is answered by the shared {@code dev.orderflow.rest.problem.ProblemMappers}.
 */
public class StatusProblems {

    private static final Logger LOG = Logger.getLogger(StatusProblems.class);

    /** Seconds a long-polling client is asked to wait when this instance holds too many waiters. */
    private static final int WAITERS_RETRY_AFTER_SECONDS = 1;
    /** Seconds an operator is asked to wait before running reconciliation again when a ledger was out of reach. */
    private static final int LEDGER_RETRY_AFTER_SECONDS = 5;

    private final ObjectMapper objectMapper;

    @Inject
    public StatusProblems(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    /** 404 saying whether the order is unknown or only its create has not arrived yet. */
    static ProblemException notFound(OrderStatusNotFoundException e) {
        return new ProblemException(e.awaitingCreate()
                ? Problem.of("order-create-not-received", "Order create not received yet", 404, e.getMessage())
                : Problem.of("order-not-found", "Order not found", 404, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response notFoundMapper(OrderStatusNotFoundException e) {
        return ProblemResponses.of(objectMapper, notFound(e).problem());
    }

    @ServerExceptionMapper
    public Response tooManyWaiters(TooManyWaitersException e) {
        return ProblemResponses.retryAfter(objectMapper, Problem.of("too-many-waiters", "Too many waiting requests", 503,
                e.getMessage() + "; retry later, or ask without wait"), WAITERS_RETRY_AFTER_SECONDS);
    }

    /** 503: a service whose ledger reconciliation reads could not answer; the run reported nothing. */
    @ServerExceptionMapper
    public Response ledgerUnavailable(ReconciliationException e) {
        LOG.warnf(e.getCause(), "Reconciliation refused: %s", e.getMessage());
        return ProblemResponses.retryAfter(objectMapper, Problem.of("ledger-unavailable", "Ledger unavailable", 503,
                e.getMessage() + "; nothing was reported, retry later"), LEDGER_RETRY_AFTER_SECONDS);
    }
}
