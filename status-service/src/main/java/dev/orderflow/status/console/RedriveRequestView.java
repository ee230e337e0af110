package dev.orderflow.status.console;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.orderflow.status.rest.ApiTime;

/**
 * A re-drive (or abandon) request as the API shows it. {@code correctedBody} is null when the
 * original is sent; {@code action} is REDRIVE or ABANDON.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "id", "action", "consumer", "group", "dlqMessageId", "messageKey", "status", "requestedBy",
        "requestedAt", "comment", "approvedBy", "rejectedBy", "decidedAt", "sentMessageId", "sentAt", "failure",
        "originalBody", "correctedBody" })
public record RedriveRequestView(long id, RedriveRequest.RequestAction action, String consumer, String group,
        String dlqMessageId, String messageKey, RedriveStatus status, String requestedBy, String requestedAt,
        String comment, String approvedBy, String rejectedBy, String decidedAt, String sentMessageId, String sentAt,
        String failure, String originalBody, String correctedBody) {

    static RedriveRequestView of(RedriveRequest r) {
        boolean rejected = r.status == RedriveStatus.REJECTED;
        return new RedriveRequestView(r.id, r.action, r.consumer, r.consumerGroup, r.dlqMessageId, r.messageKey,
                r.status,
                r.requestedBy, ApiTime.format(r.requestedAt), r.comment, rejected ? null : r.decidedBy,
                rejected ? r.decidedBy : null, ApiTime.format(r.decidedAt), r.sentMessageId, ApiTime.format(r.sentAt),
                r.failure, r.originalBody, r.correctedBody);
    }
}
