package dev.orderflow.ledger;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import dev.orderflow.security.Roles;

/**
 * order-service's orders as reconciliation reads them. Services and staff may call it, customers
 * may not (it spans every customer's orders); the roles here are what the served document shows,
 * the implementation enforces its own. Bad input is a 400 problem naming the field.
 */
@Path("/ledger/orders")
@Produces(MediaType.APPLICATION_JSON)
public interface OrderLedgerApi {

    /**
     * The orders created in [{@code from}, {@code to}) (ISO-8601 instants), by creation time then id,
     * {@code limit} (1 to {@value LedgerLimits#MAX_PAGE}) at a time: the first page without
     * {@code after}, each next one with the previous page's {@link OrderPage#next()}.
     */
    @GET
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    @Operation(summary = "Orders created in a window, for reconciliation", description = "The orders created in"
            + " [from, to) (ISO-8601 instants, both required), by creation time then id, limit (1..1000) per page:"
            + " the first page without after, each next one with after set to the previous page's next (an opaque"
            + " cursor; null after the last page). Each order with its amount, status, createdAt, updatedAt and"
            + " units per SKU (lines of one SKU added up).")
    @APIResponse(responseCode = "200", description = "OK")
    @APIResponse(responseCode = "400", description = "from or to missing or not an instant, to not after from,"
            + " limit not 1..1000, or after not the next of a previous page (problem+json naming the field)")
    OrderPage orders(@QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("after") String after, @QueryParam("limit") String limit);

    /** Which of {@code orderIds} (at most {@value LedgerLimits#MAX_IDS}) are orders, created at any time. */
    @POST
    @Path("/existing")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    @Operation(summary = "Which order ids exist, for reconciliation", description = "Of the ids in the body (a JSON"
            + " array of 1..1000 ids), those that are orders, created at any time: each once, in the order given.")
    @APIResponse(responseCode = "200", description = "OK")
    @APIResponse(responseCode = "400", description = "Not a JSON array of 1..1000 non-blank ids (problem+json naming"
            + " orderIds, or body for malformed JSON)")
    @APIResponse(responseCode = "413", description = "Body too large")
    List<String> existing(List<String> orderIds);
}
