package dev.orderflow.status.console;

import java.util.List;

/**
 * Body of {@code POST /admin/dlq/{consumer}/redrive-requests}.
 *
 * @param dlqMessageIds the DLQ entries to re-drive (at least one)
 * @param correctedBody the body to send instead of the original; only with exactly one id, and it
 *                      must parse as the consumer's message type (an order event)
 * @param comment       why, for the approver and the audit
 */
public record RedriveRequestInput(List<String> dlqMessageIds, String correctedBody, String comment) {
}
