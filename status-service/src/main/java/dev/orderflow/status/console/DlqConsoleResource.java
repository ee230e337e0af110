package dev.orderflow.status.console;

import java.util.List;
import java.util.Locale;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.security.Roles;
import dev.orderflow.status.rest.QueryParameters;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The DLQ console's API (bearer tokens; roles in {@link Roles}, the caller is the token's subject). Reads admit every role;
 * requesting a re-drive or an abandon needs {@code operator}, approving or rejecting {@code approver}.
 */
@Path("/admin")
@Produces(MediaType.APPLICATION_JSON)
public class DlqConsoleResource {

    private static final int DEFAULT_MAX = 50;
    private static final int DEFAULT_LIMIT = 100;

    private final DeadLetterQueues queues;
    private final RedriveService redrives;
    private final ConsoleConfig config;
    private final SecurityIdentity identity;

    DlqConsoleResource(DeadLetterQueues queues, RedriveService redrives, ConsoleConfig config, SecurityIdentity identity) {
        this.queues = queues;
        this.redrives = redrives;
        this.config = config;
        this.identity = identity;
    }

    @GET
    @Path("/dlq")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<DeadLetterQueueView> deadLetterQueues() {
        return queues.queues();
    }

    @GET
    @Path("/dlq/{consumer}/messages")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<DeadLetterView> deadLetters(@PathParam("consumer") String consumer, @QueryParam("max") String max) {
        return queues.messages(consumer, bounded("max", max, DEFAULT_MAX, config.browseLimit()));
    }

    @POST
    @Path("/dlq/{consumer}/redrive-requests")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    public Response requestRedrive(@PathParam("consumer") String consumer, RedriveRequestInput input) {
        return Response.status(Response.Status.CREATED).entity(redrives.request(consumer, input, user())).build();
    }

    /** Asks to give up the order of a dead-lettered create (approved like a re-drive, always by a second person). */
    @POST
    @Path("/dlq/{consumer}/abandon-requests")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    public Response requestAbandon(@PathParam("consumer") String consumer, RedriveRequestInput input) {
        return Response.status(Response.Status.CREATED).entity(redrives.requestAbandon(consumer, input, user())).build();
    }

    @POST
    @Path("/redrive-requests/{id}/approve")
    @RolesAllowed(Roles.APPROVER)
    public RedriveRequestView approve(@PathParam("id") long id) {
        return redrives.approve(id, user());
    }

    @POST
    @Path("/redrive-requests/{id}/reject")
    @RolesAllowed(Roles.APPROVER)
    public RedriveRequestView reject(@PathParam("id") long id, @QueryParam("comment") String comment) {
        return redrives.reject(id, user(), comment);
    }

    @GET
    @Path("/redrive-requests")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<RedriveRequestView> redriveRequests(@QueryParam("status") String status,
            @QueryParam("limit") String limit) {
        RedriveStatus wanted = null;
        if (status != null && !status.isBlank()) {
            try {
                wanted = RedriveStatus.valueOf(status.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw ProblemException.badRequest("status", "one of " + List.of(RedriveStatus.values()));
            }
        }
        return redrives.list(wanted, bounded("limit", limit, DEFAULT_LIMIT, config.auditLimit()));
    }

    @GET
    @Path("/audit")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<AuditEntryView> audit(@QueryParam("limit") String limit) {
        return redrives.audit(bounded("limit", limit, DEFAULT_LIMIT, config.auditLimit()));
    }

    private String user() {
        return identity.getPrincipal().getName();
    }

    private static int bounded(String field, String value, int fallback, int max) {
        return QueryParameters.intInRange(field, value, Math.min(fallback, max), 1, max);
    }
}
