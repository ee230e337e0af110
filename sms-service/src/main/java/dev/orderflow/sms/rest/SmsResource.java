package dev.orderflow.sms.rest;

import java.util.List;

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
import dev.orderflow.sms.outbox.SmsOutbox;
import dev.orderflow.sms.outbox.SmsOutboxEntry;

/** What the service has sent, or will send, to customers. */
@Path("/sms")
public class SmsResource {

    private final SmsOutbox outbox;

    @Inject
    public SmsResource(SmsOutbox outbox) {
        this.outbox = outbox;
    }

    @GET
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
        return outbox.ofOrder(orderId).stream().map(SmsView::of).toList();
    }
}
