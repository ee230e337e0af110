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
 * The effects a consumer service wrote for orders (inventory's stock movements, points' ledger
 * entries, sms' texts), as reconciliation reads them. Services and staff may call it, customers may
 * not; the roles here are what the served document shows, the implementation enforces its own. Bad
 * input is a 400 problem naming the field.
 */
@Path("/ledger/effects")
@Produces(MediaType.APPLICATION_JSON)
public interface EffectLedgerApi {

    /** Every effect written for {@code orderIds} (at most {@value LedgerLimits#MAX_IDS}), any time. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    @Operation(summary = "Every effect written for some orders, for reconciliation", description = "Of the orders"
            + " in the body (a JSON array of 1..1000 ids), every effect this service wrote, at any time, one per row.")
    @APIResponse(responseCode = "200", description = "OK")
    @APIResponse(responseCode = "400", description = "Not a JSON array of 1..1000 non-blank ids (problem+json naming"
            + " orderIds, or body for malformed JSON)")
    @APIResponse(responseCode = "413", description = "Body too large")
    List<RecordedEffect> effectsOf(List<String> orderIds);

    /**
     * The distinct ids of the orders named by effects written in [{@code from}, {@code to}) (ISO-8601
     * instants), in ascending order, greater than {@code after} when given, at most {@code limit} (1
     * to {@value LedgerLimits#MAX_PAGE}); a page shorter than {@code limit} is the last.
     */
    @GET
    @Path("/order-ids")
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    @Operation(summary = "Orders named by effects written in a window, for reconciliation", description = "The"
            + " distinct order ids of effects written in [from, to) (ISO-8601 instants, both required), ascending,"
            + " greater than after when given, at most limit (1..1000); a shorter page is the last.")
    @APIResponse(responseCode = "200", description = "OK")
    @APIResponse(responseCode = "400", description = "from or to missing or not an instant, to not after from, or"
            + " limit not 1..1000 (problem+json naming the field)")
    List<String> orderIdsWritten(@QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("after") String after, @QueryParam("limit") String limit);
}
