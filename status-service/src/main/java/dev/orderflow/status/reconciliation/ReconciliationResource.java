package dev.orderflow.status.reconciliation;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.orderflow.rest.problem.FieldError;
import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.security.Roles;
import dev.orderflow.status.rest.ApiTime;

/**
 * {@code /admin/reconciliation}: run a reconciliation now (operator, approver) or read the last
 * report (viewer too). Errors are {@code application/problem+json}.
 */
@Path("/admin/reconciliation")
@Produces(MediaType.APPLICATION_JSON)
public class ReconciliationResource {

    /**
     * The report as the API shows it. {@code findings} lists at most {@code max-findings};
     * {@code findingsOmitted} more were found and only counted; {@code counts} has every kind.
     */
    public record ReportBody(String ranAt, String from, String to, int ordersChecked, List<Finding> findings,
            int findingsOmitted, Map<String, Integer> counts) {

        static ReportBody of(ReconciliationReport report) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            report.counts().forEach((kind, count) -> counts.put(kind.label(), count));
            return new ReportBody(ApiTime.format(report.ranAt()), ApiTime.format(report.from()),
                    ApiTime.format(report.to()), report.ordersChecked(), report.findings(), report.findingsOmitted(),
                    counts);
        }
    }

    private final Reconciler reconciler;
    private final ReconciliationConfig config;

    @Inject
    public ReconciliationResource(Reconciler reconciler, ReconciliationConfig config) {
        this.reconciler = reconciler;
        this.config = config;
    }

    @POST
    @RolesAllowed({ Roles.OPERATOR, Roles.APPROVER })
    @Operation(summary = "Reconcile orders created in [from, to) against every consumer's effects now",
            description = "from/to: ISO-8601 instants; defaults: the last orderflow.reconciliation.window (24 h). "
                    + "400 when from is not before to or the window exceeds orderflow.reconciliation.max-window.")
    public ReportBody run(@QueryParam("from") String from, @QueryParam("to") String to) {
        List<FieldError> errors = new ArrayList<>();
        Instant end = parse("to", to, Instant.now(), errors);
        Instant start = parse("from", from, end.minus(config.window()), errors);
        if (errors.isEmpty() && !start.isBefore(end)) {
            errors.add(new FieldError("from", "must be before to"));
        } else if (errors.isEmpty() && start.plus(config.maxWindow()).isBefore(end)) {
            errors.add(new FieldError("from", "window longer than " + config.maxWindow()));
        }
        if (!errors.isEmpty()) {
            throw new ProblemException(Problem.invalid(400, errors));
        }
        return ReportBody.of(reconciler.run(start, end));
    }

    @GET
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    @Operation(summary = "The last reconciliation report of this instance", description = "404 when none ran yet.")
    public ReportBody last() {
        return reconciler.lastReport().map(ReportBody::of).orElseThrow(() -> new ProblemException(Problem.of(
                "reconciliation-not-run", "No reconciliation report yet", 404,
                "No reconciliation has run on this instance yet; POST /admin/reconciliation runs one.")));
    }

    private static Instant parse(String field, String value, Instant fallback, List<FieldError> errors) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(field, "not an ISO-8601 instant (e.g. 2026-11-29T07:00:00Z): " + value));
            return fallback;
        }
    }
}
