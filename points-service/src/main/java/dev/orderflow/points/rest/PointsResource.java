package dev.orderflow.points.rest;

import java.util.regex.Pattern;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import dev.orderflow.points.service.PointsService;
import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.security.Caller;
import dev.orderflow.security.Roles;

/**
 * {@code GET /points/{customerId}} → {@code {"customerId":"C-1","balance":25}}. A customer with no
 * credited order yet has balance 0 (200, not 404): points-service only learns customers from their
 * orders, so "unknown" and "no points yet" are the same answer. An invalid id → 400 problem.
 */
@Path("/points/{customerId}")
@Produces(MediaType.APPLICATION_JSON)
public class PointsResource {

    /** Letters, digits, '.', '_', '-'; at most 128 (the column width). */
    private static final Pattern CUSTOMER_ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    private final PointsService points;

    private final Caller caller;

    @Inject
    public PointsResource(PointsService points, Caller caller) {
        this.points = points;
        this.caller = caller;
    }

    /** A customer reads its own balance; staff and services anyone's. */
    @GET
    @RolesAllowed({ Roles.CUSTOMER, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER, Roles.SERVICE })
    public BalanceView balance(@PathParam("customerId") String customerId) {
        if (!CUSTOMER_ID.matcher(customerId).matches()) {
            throw ProblemException.badRequest("customerId", "must be 1-128 letters, digits, '.', '_' or '-'");
        }
        if (!caller.mayRead(customerId)) {
            throw new ProblemException(Problem.of("forbidden", "Forbidden", 403, "a customer may read its own points only"));
        }
        return new BalanceView(customerId, points.balance(customerId));
    }
}
