package dev.orderflow.status.console;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One line of {@code GET /admin/dlq}: a required consumer's DLQ and whether its re-drives need approval. */
@JsonPropertyOrder({ "consumer", "group", "depth", "approvalRequired" })
public record DeadLetterQueueView(String consumer, String group, long depth, boolean approvalRequired) {
}
