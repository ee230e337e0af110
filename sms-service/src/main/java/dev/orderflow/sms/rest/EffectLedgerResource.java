package dev.orderflow.sms.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;

import org.hibernate.jpa.HibernateHints;

import dev.orderflow.ledger.EffectLedgerApi;
import dev.orderflow.ledger.LedgerRequests;
import dev.orderflow.ledger.RecordedEffect;
import dev.orderflow.persistence.WindowReads;
import dev.orderflow.security.Roles;
import dev.orderflow.sms.outbox.SmsOutboxEntry;
import io.quarkus.panache.common.Sort;

/**
 * The texts as status-service's reconciliation reads them ({@link EffectLedgerApi}): one
 * {@link RecordedEffect} per {@code sms_outbox} row, kind its event type as the column holds it
 * (CREATE, CANCEL or FAIL, the enum's name, not the lower-case tag), subject "", amount 1, state
 * its status. Read-only.
 */
public class EffectLedgerResource implements EffectLedgerApi {

    @Override
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<RecordedEffect> effectsOf(List<String> orderIds) {
        List<String> ids = LedgerRequests.orderIds(orderIds);
        return SmsOutboxEntry.<SmsOutboxEntry> find("orderId in ?1", Sort.by("orderId", "rowId"), ids)
                .withHint(HibernateHints.HINT_READ_ONLY, true).list().stream()
                .map(text -> new RecordedEffect(text.orderId, text.eventType.name(), "", 1, text.status.name()))
                .toList();
    }

    @Override
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<String> orderIdsWritten(String from, String to, String after, String limit) {
        LedgerRequests.Window window = LedgerRequests.window(from, to, limit);
        return WindowReads.distinctOrderIds(SmsOutboxEntry.getEntityManager(), SmsOutboxEntry.class, window.from(),
                window.to(), after, window.limit());
    }
}
