package dev.orderflow.status.lag;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.security.Roles;
import dev.orderflow.status.rest.ApiTime;

/**
 * {@code GET /lag}: every monitored consumer group with its latest figures and short history, from
 * {@link LagMonitor}'s last round (the request never asks the broker). No authentication, like
 * {@code /q/metrics}.
 */
@Path("/lag")
@Produces(MediaType.APPLICATION_JSON)
public class LagResource {

    /** The body; {@code stale} appears (true) only when the last round failed and older figures are shown. */
    public record LagBody(String measuredAt, @JsonInclude(JsonInclude.Include.NON_NULL) Boolean stale,
            List<GroupBody> groups) {
    }

    public record GroupBody(String group, long behind, Double oldestUnconsumedAgeSeconds, long retryDepth,
            long dlqDepth, int consumersOnline, List<TopicLagFigures> topics, List<HistoryBody> history) {
    }

    public record HistoryBody(String at, long behind, Double oldestUnconsumedAgeSeconds, long dlqDepth) {
    }

    private final LagMonitor monitor;

    @Inject
    public LagResource(LagMonitor monitor) {
        this.monitor = monitor;
    }

    @GET
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER, Roles.SERVICE })
    @Operation(summary = "Consumer lag of every monitored group", description = "Latest figures (messages behind, "
            + "age of the oldest unconsumed message, retry and DLQ depth, consumers online, per topic) and the last "
            + "samples oldest first. When the broker could not be asked in the last round: the last known figures "
            + "with \"stale\": true. 503 problem lag-not-measured when nothing was ever measured.")
    public LagBody lag() {
        LagMonitor.Snapshot snapshot = monitor.latest().orElseThrow(() -> new ProblemException(Problem.of(
                "lag-not-measured", "Lag not measured yet", 503, "No consumer-lag sample has succeeded yet "
                        + "(broker unreachable, or orderflow.lag.sample-interval=PT0S); retry later.")));
        return new LagBody(ApiTime.format(snapshot.measuredAt()), snapshot.stale() ? Boolean.TRUE : null,
                snapshot.groups().stream().map(LagResource::body).toList());
    }

    private static GroupBody body(GroupLagFigures g) {
        return new GroupBody(g.group(), g.behind(), g.oldestUnconsumedAgeSeconds(), g.retryDepth(), g.dlqDepth(),
                g.consumersOnline(), g.topics(), g.history().stream()
                        .map(h -> new HistoryBody(ApiTime.format(h.at()), h.behind(), h.oldestUnconsumedAgeSeconds(),
                                h.dlqDepth()))
                        .toList());
    }
}
