package dev.orderflow.points.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;

import org.hibernate.jpa.HibernateHints;

import dev.orderflow.ledger.EffectLedgerApi;
import dev.orderflow.ledger.LedgerRequests;
import dev.orderflow.ledger.RecordedEffect;
import dev.orderflow.persistence.WindowReads;
import dev.orderflow.points.domain.PointsLedgerEntry;
import dev.orderflow.security.Roles;
import io.quarkus.panache.common.Sort;

/**
 * The points ledger as status-service's reconciliation reads it ({@link EffectLedgerApi}): one
 * {@link RecordedEffect} per {@code points_ledger} row, kind its reason, subject "", amount its
 * points (negative for a reversal). Read-only.
 */
public class EffectLedgerResource implements EffectLedgerApi {

    @Override
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<RecordedEffect> effectsOf(List<String> orderIds) {
        List<String> ids = LedgerRequests.orderIds(orderIds);
        return PointsLedgerEntry.<PointsLedgerEntry> find("orderId in ?1", Sort.by("orderId", "reason"), ids)
                .withHint(HibernateHints.HINT_READ_ONLY, true).list().stream()
                .map(entry -> new RecordedEffect(entry.orderId, entry.reason.name(), "", entry.points, null))
                .toList();
    }

    @Override
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<String> orderIdsWritten(String from, String to, String after, String limit) {
        LedgerRequests.Window window = LedgerRequests.window(from, to, limit);
        return WindowReads.distinctOrderIds(PointsLedgerEntry.getEntityManager(), PointsLedgerEntry.class, window.from(),
                window.to(), after, window.limit());
    }
}
