package dev.orderflow.status.console;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.orderflow.status.rest.ApiTime;

/** One line of {@code GET /admin/audit}. */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "id", "at", "actor", "action", "consumer", "group", "requestId", "dlqMessageId", "messageKey",
        "outcome", "detail", "beforeBody", "afterBody" })
public record AuditEntryView(long id, String at, String actor, AuditEntry.Action action, String consumer, String group,
        Long requestId, String dlqMessageId, String messageKey, RedriveStatus outcome, String detail, String beforeBody,
        String afterBody) {

    static AuditEntryView of(AuditEntry a) {
        return new AuditEntryView(a.id, ApiTime.format(a.at), a.actor, a.action, a.consumer, a.consumerGroup, a.requestId,
                a.dlqMessageId, a.messageKey, a.outcome, a.detail, a.beforeBody, a.afterBody);
    }
}
