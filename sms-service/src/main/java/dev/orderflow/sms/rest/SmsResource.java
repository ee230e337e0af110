package dev.orderflow.sms.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.security.Caller;
import dev.orderflow.security.Roles;
import dev.orderflow.sms.outbox.SmsOutbox;
import dev.orderflow.sms.outbox.SmsOutboxEntry;

/** What the service has sent, or will send, to customers. */
@Path("/sms")
public class SmsResource {

    private final SmsOutbox outbox;
    private final Caller caller;

    @Inject
    public SmsResource(SmsOutbox outbox, Caller caller) {
        this.outbox = outbox;
        this.caller = caller;
    }

    /** A customer reads the texts of its own orders (another customer's order: as if unknown); staff and services any. */
    @GET
    @RolesAllowed({ Roles.CUSTOMER, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER, Roles.SERVICE })
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Texts of an order",
            description = "Every text recorded for the order, oldest first: sent, pending or failed. An order the "
                    + "service has not heard of yields an empty array.")
    @APIResponse(responseCode = "200", description = "The texts",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SmsView[].class)))
    @APIResponse(responseCode = "400", description = "orderId missing, blank or too long",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public List<SmsView> textsOfOrder(
            @Parameter(description = "The order id", required = true, example = "01J9Z8Q4M7R2N5T8V1W4X7Y0AB")
            @QueryParam("orderId") String orderId) {
        if (orderId == null || orderId.isBlank()) {
            throw ProblemException.badRequest("orderId", "is required");
        }
        if (orderId.length() > SmsOutboxEntry.MAX_ORDER_ID_LENGTH) {
            throw ProblemException.badRequest("orderId",
                    "must be at most " + SmsOutboxEntry.MAX_ORDER_ID_LENGTH + " characters");
        }
        return outbox.ofOrder(orderId).stream().filter(text -> caller.mayRead(text.customerId)).map(SmsView::of)
                .toList();
    }
}
