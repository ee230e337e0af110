package dev.orderflow.status.console;

/** Where a re-drive (or abandon) request stands. */
public enum RedriveStatus {
    /** Requested; waits for an approver other than the requester. */
    PENDING_APPROVAL,
    /** Sent to the consumer group's retry topic. */
    SENT,
    /** An approver said no; nothing was sent. */
    REJECTED,
    /** Approved (or needing no approval) but the broker did not take it, or the DLQ entry was gone. */
    FAILED,
    /** An abandon request, approved: the order was decided FAILED and its compensation started. */
    ABANDONED
}
