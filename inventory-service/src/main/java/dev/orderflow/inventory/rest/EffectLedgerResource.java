package dev.orderflow.inventory.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;

import org.hibernate.jpa.HibernateHints;

import dev.orderflow.inventory.domain.StockMovement;
import dev.orderflow.ledger.EffectLedgerApi;
import dev.orderflow.ledger.LedgerRequests;
import dev.orderflow.ledger.RecordedEffect;
import dev.orderflow.persistence.WindowReads;
import dev.orderflow.security.Roles;
import io.quarkus.panache.common.Sort;

/**
 * The stock movements as status-service's reconciliation reads them ({@link EffectLedgerApi}): one
 * {@link RecordedEffect} per {@code stock_movement} row, kind DEDUCT or RESTORE, subject the SKU,
 * amount the units. Read-only.
 */
public class EffectLedgerResource implements EffectLedgerApi {

    @Override
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<RecordedEffect> effectsOf(List<String> orderIds) {
        List<String> ids = LedgerRequests.orderIds(orderIds);
        return StockMovement.<StockMovement> find("orderId in ?1", Sort.by("orderId", "sku", "kind"), ids)
                .withHint(HibernateHints.HINT_READ_ONLY, true).list().stream()
                .map(movement -> new RecordedEffect(movement.orderId, movement.kind.name(), movement.sku,
                        movement.quantity, null))
                .toList();
    }

    @Override
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<String> orderIdsWritten(String from, String to, String after, String limit) {
        LedgerRequests.Window window = LedgerRequests.window(from, to, limit);
        return WindowReads.distinctOrderIds(StockMovement.getEntityManager(), StockMovement.class, window.from(),
                window.to(), after, window.limit());
    }
}
