package dev.orderflow.status.rest;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.security.Caller;
import dev.orderflow.security.Roles;
import dev.orderflow.status.config.StatusServiceConfig;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.service.OrderHistoryView;
import dev.orderflow.status.service.OrderStatusNotFoundException;
import dev.orderflow.status.service.OrderStatusView;
import dev.orderflow.status.service.StatusQueries;
import dev.orderflow.status.service.StatusWaiters;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * The status API. Every error is an {@code application/problem+json} body (the shared rest-problems
 * mappers, plus {@link StatusProblems}).
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class OrderStatusResource {

    /** Order ids as the order service makes them (ULIDs), with room for other key-safe ids. */
    private static final Pattern ORDER_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final StatusQueries queries;
    private final StatusWaiters waiters;
    private final StatusServiceConfig config;
    private final Caller caller;

    @Inject
    public OrderStatusResource(StatusQueries queries, StatusWaiters waiters, StatusServiceConfig config, Caller caller) {
        this.queries = queries;
        this.waiters = waiters;
        this.config = config;
        this.caller = caller;
    }

    /**
     * Runs on the event loop and never blocks it: the database reads run on a worker thread, and a
     * long-polling request waits as a future in {@link StatusWaiters}, holding no thread.
     */
    @GET
    @Path("orders/{orderId}/status")
    @RolesAllowed({ Roles.CUSTOMER, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER, Roles.SERVICE })
    @Operation(summary = "An order's processing status", description = "404 while the order is unknown or its create "
            + "event has not arrived. With wait (ISO-8601 duration, e.g. PT10S, capped by "
            + "orderflow.status.long-poll.max-wait) the answer comes as soon as the state is not PENDING, or at the "
            + "timeout with the state then (404 if the order is still not visible). A customer sees its own orders "
            + "only: another customer's order is 404, as if unknown.")
    public Uni<OrderStatusBody> status(@PathParam("orderId") String orderId,
            @Parameter(description = "ISO-8601 duration to wait for a non-PENDING state, e.g. PT10S")
            @QueryParam("wait") String wait) {
        checkOrderId(orderId);
        Duration waitFor = parseWait(wait);
        Predicate<String> readable = caller.readableCustomers();
        if (waitFor.isZero()) {
            return read(orderId, readable).map(OrderStatusBody::of);
        }
        StatusWaiters.Waiter waiter = waiters.register(orderId);
        return read(orderId, readable)
                .onFailure(OrderStatusNotFoundException.class).recoverWithNull()
                .chain(view -> view != null && view.state() != OrderState.PENDING
                        ? Uni.createFrom().item(view)
                        : Uni.createFrom().completionStage(waiter.woken())
                                .ifNoItem().after(waitFor).recoverWithItem((Void) null)
                                .chain(() -> read(orderId, readable)))
                .eventually(() -> waiters.remove(waiter))
                .map(OrderStatusBody::of);
    }

    @GET
    @Path("orders/{orderId}/status/history")
    @RolesAllowed({ Roles.CUSTOMER, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER, Roles.SERVICE })
    @Operation(summary = "An order's flags per event and when it reached each state", description = "The create, the "
            + "cancel when one was requested, the compensation when the order was decided FAILED: each required "
            + "consumer's state for it and when it was reached. 404 like the status: unknown, create not arrived, or "
            + "another customer's order.")
    public Uni<OrderHistoryBody> history(@PathParam("orderId") String orderId) {
        checkOrderId(orderId);
        return readIfAllowed(orderId, queries::history, OrderHistoryView::customerId, caller.readableCustomers())
                .map(OrderHistoryBody::of);
    }

    @GET
    @Path("orders/status")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER, Roles.SERVICE })
    @Blocking
    @Operation(summary = "Orders in one state, newest first")
    public StatusPageBody list(
            @Parameter(description = "PENDING, COMPLETED, FAILED or CANCELLED", required = true)
            @QueryParam("state") String state,
            @Parameter(description = "0-based page") @QueryParam("page") String page,
            @Parameter(description = "page size, 1..orderflow.status.listing.max-page-size") @QueryParam("size") String size) {
        OrderState parsedState = parseState(state);
        int parsedPage = QueryParameters.intInRange("page", page, 0, 0, config.listing().maxPage());
        int parsedSize = QueryParameters.intInRange("size", size, config.listing().defaultPageSize(), 1, config.listing().maxPageSize());
        return StatusPageBody.of(queries.list(parsedState, parsedPage, parsedSize));
    }

    @GET
    @Path("status/summary")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER, Roles.SERVICE })
    @Blocking
    @Operation(summary = "Orders per state and end-to-end latency percentiles of recent completions")
    public StatusSummaryBody summary() {
        return StatusSummaryBody.of(queries.summary());
    }

    /** The windows of {@code GET /status/overview}. */
    static final List<Duration> OVERVIEW_WINDOWS = List.of(Duration.ofMinutes(5), Duration.ofHours(1));

    @GET
    @Path("status/overview")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER, Roles.SERVICE })
    @Blocking
    @Operation(summary = "Orders created in the last 5 minutes and the last hour, per state they are in now, "
            + "and the orders completed in each")
    public StatusOverviewBody overview() {
        Instant now = Instant.now();
        return StatusOverviewBody.of(now, queries.windows(now, OVERVIEW_WINDOWS));
    }

    /** The order's status when the caller may read it; else not found, like an unknown order. */
    private Uni<OrderStatusView> read(String orderId, Predicate<String> readableCustomers) {
        return readIfAllowed(orderId, queries::find, OrderStatusView::customerId, readableCustomers);
    }

    /** {@code query} of the order on a worker thread, unless the caller may not read the order's customer: then 404. */
    private <V> Uni<V> readIfAllowed(String orderId, Function<String, V> query, Function<V, String> customerOf,
            Predicate<String> readableCustomers) {
        return Uni.createFrom().item(() -> {
            V view = query.apply(orderId);
            if (!readableCustomers.test(customerOf.apply(view))) {
                throw new OrderStatusNotFoundException(orderId, false);
            }
            return view;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private static void checkOrderId(String orderId) {
        if (!ORDER_ID.matcher(orderId).matches()) {
            throw ProblemException.badRequest("orderId", "must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', '-'");
        }
    }

    /** Zero when absent; capped at the configured maximum. */
    private Duration parseWait(String wait) {
        if (wait == null || wait.isBlank()) {
            return Duration.ZERO;
        }
        Duration parsed;
        try {
            parsed = Duration.parse(wait.trim());
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest("wait", "must be an ISO-8601 duration such as PT10S, was '" + wait + "'");
        }
        if (parsed.isNegative()) {
            throw ProblemException.badRequest("wait", "must not be negative, was " + wait);
        }
        Duration max = config.longPoll().maxWait();
        return parsed.compareTo(max) > 0 ? max : parsed;
    }

    private static OrderState parseState(String state) {
        if (state == null || state.isBlank()) {
            throw ProblemException.badRequest("state", "is required: PENDING, COMPLETED, FAILED or CANCELLED");
        }
        try {
            return OrderState.valueOf(state.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ProblemException.badRequest("state", "must be PENDING, COMPLETED, FAILED or CANCELLED, was '"
                    + state + "'");
        }
    }
}
